import { Effect, Either, Schema } from "effect"
import type { DefinitionRecord } from "../../definitions/DefinitionRecord.js"
import { DefinitionType } from "../../definitions/DefinitionType.js"
import { readDefinition } from "../../definitions/readDefinition.js"
import { Caller } from "../../domain/Caller.js"
import type { Rejection } from "../../domain/Rejection.js"
import type { Formats } from "../../formats/DefinitionFormat.js"
import type { ContentStore } from "../../ports/ContentStore.js"
import type { Ids } from "../../ports/Ids.js"
import type { Ledger } from "../../ports/Ledger.js"
import type { Views } from "../../ports/Views.js"
import { checkInputBounds } from "../../runs/inputBounds.js"
import { performRun, type RunCommand } from "../../runs/performRun.js"
import type { RunState } from "../../runs/RunRecord.js"
import type { RunFailed, RunRejected, RunSucceeded } from "../../runs/runFacts.js"
import { type StartedWithin, startWithin } from "../../runs/startWithin.js"
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

/** What a callee's ending fact answers its call, read from the fact itself; undefined for a fact that ends nothing. */
export const answerOfEnding = (ending: { readonly type: string; readonly data: unknown }): CallAnswer | undefined => {
  if (ending.type === "run_succeeded") return { status: "succeeded", output: (ending.data as RunSucceeded).output }
  if (ending.type === "run_failed") return { status: "failed", detail: (ending.data as RunFailed).detail }
  return ending.type === "run_rejected" ? rejectedAnswer(ending.data as RunRejected) : undefined
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

/**
 * The caller a callee runs as: whoever started the workflow, on this playbook only (workflow-format.md §7.1). Built
 * without the schema's check: its fields are the run's own, read from facts that were checked when recorded, and
 * checking them again took about 3% of a call step's main thread.
 */
const callerOf = (context: RunContext): Caller =>
  new Caller(
    {
      id: context.startedBy.id,
      name: context.startedBy.name,
      kind: "key",
      org: context.org,
      permissions: ["playbook:read", "playbook:write"],
      playbooks: [context.playbook]
    },
    { disableValidation: true }
  )

/** The task run counter of a call key `<run id> <reference> <run>`. */
const taskRunOf = (key: string): number => Number(key.slice(key.lastIndexOf(" ") + 1))

/** How long a drive trusts a callee's definition as it read it before reading it again (ADR 0278). */
const definitionTrustMillis = 1_000

/** The callees' definitions one drive has read, by type and name, with when each was read (`performance.now`). */
export type CalleeDefinitions = Map<string, { readonly record: DefinitionRecord; readonly readAt: number }>

/** The definition a call names as it stands, read once a second at most within one drive. */
const calleeDefinition = (context: RunContext, type: DefinitionType, name: string, kept: CalleeDefinitions) =>
  Effect.gen(function* () {
    const key = `${type}/${name}`
    const now = performance.now()
    const held = kept.get(key)
    if (held !== undefined && now - held.readAt < definitionTrustMillis) return held.record
    const record = yield* readDefinition(context.org, context.playbook, type, name)
    kept.set(key, { record, readAt: now })
    return record
  })

/** What a call step starts: the callee's run, or the answer it has at once when it cannot start. */
type PreparedCall =
  | { readonly _tag: "Answer"; readonly answer: CallAnswer }
  | { readonly _tag: "Run"; readonly command: RunCommand }

/**
 * Decides the run a call step asks for (workflow-format.md §7.1): the active latest version of the named definition,
 * under the callee run id the call key derives, acting for whoever started the workflow, its facts carrying
 * `called_by`, `call_depth`, the tree's chain and `cause`. A call that cannot start answers at once.
 */
const prepareCall = (context: RunContext, call: StartCallOutput, cause: string, kept: CalleeDefinitions) =>
  Effect.gen(function* () {
    const type = Schema.decodeUnknownEither(DefinitionType)(call.type)
    if (Either.isLeft(type))
      return answerOf(
        rejectedAnswer({ reason: "not_found", detail: `There is no definition type ${JSON.stringify(call.type)}.` })
      )
    const definition = yield* calleeDefinition(context, type.right, call.name, kept)
    const named = `${type.right === "workflow" ? "workflow" : `${type.right} function`} ${call.name}`
    if (definition.status !== "active")
      return answerOf(
        rejectedAnswer({
          reason: "conflict",
          kind: definition.status,
          detail: `The ${named} is ${definition.status}, so a step cannot call it.`
        })
      )
    const outOfBounds = checkInputBounds(call.input)
    if (outOfBounds !== undefined) return answerOf(rejectedAnswer(outOfBounds))
    const command: RunCommand = {
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
    }
    return { _tag: "Run", command } satisfies PreparedCall as PreparedCall
  }).pipe(Effect.catchTag("Rejection", (rejection: Rejection) => Effect.succeed(answerOf(rejectedAnswer(rejection)))))

const answerOf = (answer: CallAnswer): PreparedCall => ({ _tag: "Answer", answer })

/**
 * Starts the run a call step asks for on its own (`performRun`): a run id already started answers as that run
 * stands (the retry table), so starting again after a crash repeats nothing. The answer when the callee ended
 * within this request, or could not start; `undefined` while it goes on (its ending marks the call arrived on this
 * run's due document).
 */
export const startCall = (context: RunContext, call: StartCallOutput, cause: string, kept: CalleeDefinitions) =>
  Effect.gen(function* () {
    const prepared = yield* prepareCall(context, call, cause, kept)
    if (prepared._tag === "Answer") return prepared.answer
    return answerOfRun(yield* performRun(prepared.command))
  }).pipe(Effect.catchTag("Rejection", (rejection: Rejection) => Effect.succeed(rejectedAnswer(rejection))))

/** How a call step's callee starts within the input that asks for it. */
export type CallWithin =
  /** The call answers at once, recording nothing (the callee cannot start). */
  | { readonly _tag: "Answer"; readonly key: string; readonly answer: CallAnswer }
  /** The callee's start (and ending) go in the input's own append. */
  | { readonly _tag: "Within"; readonly key: string; readonly started: StartedWithin }
  /** The callee starts on its own once the input is recorded (a workflow). */
  | { readonly _tag: "Later"; readonly call: StartCallOutput }

/**
 * Decides a call step's callee for the append that records the input asking for it (ADR 0278): a callee whose
 * format records with its start is carried out now and recorded in that same append, so the step costs one commit.
 */
export const startCallWithin = (
  context: RunContext,
  call: StartCallOutput,
  cause: string,
  kept: CalleeDefinitions
): Effect.Effect<CallWithin, never, Ledger | Ids | Formats | Views | ContentStore> =>
  Effect.gen(function* () {
    const prepared = yield* prepareCall(context, call, cause, kept)
    if (prepared._tag === "Answer") return { _tag: "Answer", key: call.key, answer: prepared.answer } as const
    const started = yield* startWithin(prepared.command)
    if (started === undefined) return { _tag: "Later", call } as const
    return { _tag: "Within", key: call.key, started } as const
  }).pipe(
    Effect.catchTag("Rejection", (rejection: Rejection) =>
      Effect.succeed({ _tag: "Answer", key: call.key, answer: rejectedAnswer(rejection) } as const)
    )
  )
