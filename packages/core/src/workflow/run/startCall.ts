import { Effect, Either, Schema } from "effect"
import { DefinitionType } from "../../definitions/DefinitionType.js"
import { readDefinition } from "../../definitions/readDefinition.js"
import { Caller } from "../../domain/Caller.js"
import type { Rejection } from "../../domain/Rejection.js"
import { checkInputBounds } from "../../runs/inputBounds.js"
import { performRun } from "../../runs/performRun.js"
import type { RunState } from "../../runs/RunRecord.js"
import type { EngineOutput } from "../engine/EngineOutput.js"
import type { CallAnswer } from "../engine/WorkflowInput.js"
import type { RunContext } from "./RunContext.js"

/** A `start_call` output. */
export type StartCallOutput = Extract<EngineOutput, { kind: "start_call" }>

/** What a call's callee answers when it ended: its output, its rejection, or its failure. */
export const answerOfRun = (run: RunState): CallAnswer | undefined => {
  if (run.status === "succeeded") return { status: "succeeded", output: run.output }
  if (run.status === "failed")
    return { status: "failed", ...(run.rejection?.detail ? { detail: run.rejection.detail } : {}) }
  if (run.status !== "rejected" || run.rejection === undefined) return undefined
  return rejectedAnswer(run.rejection)
}

const rejectedAnswer = (rejection: {
  readonly reason: string
  readonly kind?: string | undefined
  readonly because?: string | undefined
  readonly detail?: string | undefined
}): CallAnswer =>
  rejection.reason === "internal"
    ? { status: "failed", ...(rejection.detail === undefined ? {} : { detail: rejection.detail }) }
    : {
        status: "rejected",
        reason: rejection.reason,
        ...(rejection.kind === undefined ? {} : { kind: rejection.kind }),
        ...(rejection.because === undefined ? {} : { because: rejection.because }),
        ...(rejection.detail === undefined ? {} : { detail: rejection.detail })
      }

/** The caller a callee runs as: whoever started the workflow, on this playbook only (workflow-format.md §7.1). */
const callerOf = (context: RunContext): Caller =>
  new Caller({
    id: context.startedBy.id,
    name: context.startedBy.name,
    kind: "key",
    org: context.org,
    permissions: ["playbook:read", "playbook:write"],
    playbooks: [context.playbook]
  })

/** The task run counter of a call key `<run id> <reference> <run>`. */
const taskRunOf = (key: string): number => Number(key.slice(key.lastIndexOf(" ") + 1))

/**
 * Starts the run a call step asks for (workflow-format.md §7.1): the active latest version of the named definition,
 * under the callee run id the call key derives, acting for whoever started the workflow, its facts carrying
 * `called_by`, `call_depth` and the tree's chain. A run id already started answers as that run stands (the retry
 * table), so starting again after a crash repeats nothing. The answer when the callee ended within this request, or
 * could not start; `undefined` while it goes on (its ending marks the call arrived on this run's due document).
 */
export const startCall = (context: RunContext, call: StartCallOutput, cause: string) =>
  Effect.gen(function* () {
    const type = Schema.decodeUnknownEither(DefinitionType)(call.type)
    if (Either.isLeft(type))
      return rejectedAnswer({
        reason: "not_found",
        detail: `There is no definition type ${JSON.stringify(call.type)}.`
      })
    const definition = yield* readDefinition(context.org, context.playbook, type.right, call.name)
    const named = `${type.right === "workflow" ? "workflow" : `${type.right} function`} ${call.name}`
    if (definition.status !== "active")
      return rejectedAnswer({
        reason: "conflict",
        kind: definition.status,
        detail: `The ${named} is ${definition.status}, so a step cannot call it.`
      })
    const outOfBounds = checkInputBounds(call.input)
    if (outOfBounds !== undefined) return rejectedAnswer(outOfBounds)
    const run = yield* performRun({
      org: context.org,
      playbook: context.playbook,
      definition,
      input: call.input,
      runId: call.runId,
      caller: callerOf(context),
      metadata: {
        called_by: { run_id: context.runId, reference: call.reference, run: taskRunOf(call.key) },
        call_depth: context.callDepth + 1,
        correlation_id: context.correlationId,
        causation_id: cause,
        ...(context.actsFor === undefined ? {} : { acts_for: context.actsFor }),
        ...(context.started.metadata.depth === undefined ? {} : { depth: context.started.metadata.depth })
      }
    })
    return answerOfRun(run)
  }).pipe(Effect.catchTag("Rejection", (rejection: Rejection) => Effect.succeed(rejectedAnswer(rejection))))
