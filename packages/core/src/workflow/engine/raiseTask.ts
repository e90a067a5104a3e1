import { Effect } from "effect"
import type { TaskBody } from "../../formats/workflow/Task.js"
import { evaluateTemplate } from "./evaluation.js"
import { type Raised, raise, runtimeFault } from "./faults.js"
import type { BodyOutcome, Step } from "./frames.js"
import type { ErrorObject } from "./RunStateShape.js"
import { bodyVariables } from "./stepVariables.js"

type RaiseBody = Extract<TaskBody, { kind: "raise" }>

const configurationFault = (instance: string, detail: string) =>
  raise(runtimeFault("configuration", 400, instance, "The raised error is incomplete", detail))

/**
 * `raise`: the error's fields evaluated on the task's data; without a text `type` and an integer `status` it is
 * `ERR/configuration` 400 instead; `instance` defaults to the task's reference (§3.2).
 */
export const startRaise = (step: Step, body: RaiseBody): Effect.Effect<BodyOutcome, Raised> =>
  Effect.gen(function* () {
    const reference = step.task.reference
    const value = yield* evaluateTemplate(step.machine, body.error.error, bodyVariables(step), reference)
    const fields = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>
    const { type, status } = fields
    if (typeof type !== "string" || type === "" || typeof status !== "number" || !Number.isInteger(status)) {
      return yield* configurationFault(reference, "a raised error needs a text type and an integer status")
    }
    const texts = ["title", "detail", "instance", "kind", "because"] as const
    const written = texts.filter((key) => fields[key] !== undefined && fields[key] !== null)
    if (!written.every((key) => typeof fields[key] === "string")) {
      return yield* configurationFault(reference, "title, detail, instance, kind and because of an error are text")
    }
    const error: ErrorObject = {
      type,
      status,
      instance: (fields.instance as string | undefined) ?? reference,
      ...Object.fromEntries(written.filter((key) => key !== "instance").map((key) => [key, fields[key]]))
    }
    return yield* raise({ error })
  })
