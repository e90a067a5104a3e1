import { Effect } from "effect"
import { jsonBytes } from "../../domain/utf8Bytes.js"
import { reservedEventTypes, reservedSourcePrefixes } from "../../formats/workflow/reservedEvents.js"
import type { TaskBody } from "../../formats/workflow/Task.js"
import { evaluateTemplate } from "./evaluation.js"
import { type Raised, raise, runtimeFault } from "./faults.js"
import type { BodyOutcome, Step } from "./frames.js"
import { executionKey } from "./Machine.js"
import { bodyVariables } from "./stepVariables.js"
import { uuidV5 } from "./uuidV5.js"
import type { RunEvent } from "./WorkflowInput.js"

type EmitBody = Extract<TaskBody, { kind: "emit" }>

/** Events a run may emit over its life, and their total size (workflow-format.md §15). */
export const maxEmitted = 1_024
export const maxEmittedBytes = 4 * 1_048_576
/** The size of one emitted event as JSON (§8.4). */
export const maxEmitBytes = 245_760

const invalidEvent = (instance: string, detail: string) =>
  raise(runtimeFault("validation", 400, instance, "The emitted event is invalid", detail))

/**
 * What is wrong with computed event attributes, if anything (§8.4): `type` and `source` required text, neither
 * reserved. Attribute names are written literally, so reserved attributes and `id` are refused at save.
 */
const eventProblem = (attributes: Record<string, unknown>): string | undefined => {
  const { type, source } = attributes
  if (typeof type !== "string" || type === "") return "type is required text"
  if (typeof source !== "string" || source === "") return "source is required text"
  if (reservedEventTypes.has(type)) return `the type ${type} is kept by the runtime`
  const prefix = reservedSourcePrefixes.find((start) => source.startsWith(start))
  if (prefix !== undefined) return `sources starting ${prefix} are kept by the runtime`
  return undefined
}

/**
 * `emit` (§8.4): the attributes evaluated and checked, the id derived from the emit's key (UUIDv5), `time` the
 * step's time unless given; at most 240 KiB, and 1,024 events or 4 MiB over the run's life (`ERR/runtime` 500).
 */
export const startEmit = (step: Step, body: EmitBody): Effect.Effect<BodyOutcome, Raised> =>
  Effect.gen(function* () {
    const { machine, task, frame } = step
    const value = yield* evaluateTemplate(machine, body.event, bodyVariables(step), task.reference)
    const attributes = (typeof value === "object" && value !== null && !Array.isArray(value) ? value : {}) as Record<
      string,
      unknown
    >
    const problem = eventProblem(attributes)
    if (problem !== undefined) return yield* invalidEvent(task.reference, problem)
    const id = uuidV5(executionKey(machine, task.reference, frame.run))
    const event = {
      ...attributes,
      id,
      time: typeof attributes.time === "string" ? attributes.time : new Date(machine.now).toISOString()
    } as RunEvent
    const bytes = jsonBytes(event)
    if (bytes > maxEmitBytes) {
      return yield* invalidEvent(task.reference, `the event is ${bytes} bytes as JSON, more than ${maxEmitBytes}`)
    }
    const { counters } = machine.state
    if (counters.emitted + 1 > maxEmitted || counters.emittedBytes + bytes > maxEmittedBytes) {
      return yield* raise(
        runtimeFault(
          "runtime",
          500,
          task.reference,
          "Too many emitted events",
          "a run emits at most 1,024 events or 4 MiB"
        )
      )
    }
    counters.emitted += 1
    counters.emittedBytes += bytes
    machine.seen.push(id)
    machine.outputs.push({ kind: "emit", id, event })
    return { tag: "done", value: frame.input }
  })
