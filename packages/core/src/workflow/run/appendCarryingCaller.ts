import { Clock, Effect, Option } from "effect"
import type { NewFact } from "../../domain/Fact.js"
import { runEndingTypes } from "../../interactions/interactionFacts.js"
import { type AppendResult, Ledger, type StreamAppend, type VersionConflict } from "../../ports/Ledger.js"
import type { StoreUnavailable } from "../../ports/StoreUnavailable.js"
import { Views } from "../../ports/Views.js"
import { apply } from "../engine/apply.js"
import type { Applied } from "../engine/Interpreter.js"
import { isEnded, openCalls } from "../engine/runState.js"
import type { WorkflowInput } from "../engine/WorkflowInput.js"
import { ExpressionEvaluator } from "../expressions/ExpressionEvaluator.js"
import { type DriveServices, driveRun, handOffToCaller } from "./driveRun.js"
import { loadWorkflowDocument } from "./loadWorkflowDocument.js"
import { type RunContext, readRunContext } from "./RunContext.js"
import { type PreparedInput, prepareInput } from "./recordInput.js"
import { answerOfEnding } from "./startCall.js"
import { WorkflowEngine } from "./WorkflowEngine.js"
import { type WorkflowDue, workflowDuePartition, workflowDueView } from "./workflowDueProjection.js"
import { type CalledBy, callerStreamOf, callKeyOf } from "./workflowRunAddress.js"
import { type WorkflowStateDoc, workflowStatesPartition, workflowStatesView } from "./workflowStatesProjection.js"

/** The ending among a callee's facts, and the workflow call it answers, if the callee was called by a workflow. */
const callAnswered = (append: StreamAppend): { ending: NewFact; calledBy: CalledBy } | undefined => {
  const ending = append.facts.find((fact) => (runEndingTypes as ReadonlyArray<string>).includes(fact.type))
  const calledBy = ending?.metadata.called_by as Partial<CalledBy> | undefined
  return ending !== undefined &&
    typeof calledBy?.run_id === "string" &&
    typeof calledBy.reference === "string" &&
    typeof calledBy.run === "number"
    ? { ending, calledBy: calledBy as CalledBy }
    : undefined
}

/**
 * The caller's input taking the callee's answer, prepared for the callee's own append: undefined when the caller is
 * not a going workflow run whose open call this callee answers, or takes nothing from it.
 */
const prepareCallerInput = (callerStream: string, ending: NewFact, calledBy: CalledBy, calleeRunId: string) =>
  Effect.gen(function* () {
    const engine = yield* WorkflowEngine
    const views = yield* Views
    const [context, stateDoc, dueDoc] = yield* Effect.all(
      [
        readRunContext(callerStream),
        views.get({ view: workflowStatesView, partition: workflowStatesPartition, id: callerStream }),
        views.get({ view: workflowDueView, partition: workflowDuePartition, id: callerStream })
      ],
      { concurrency: "unbounded" }
    )
    const standing = Option.getOrUndefined(stateDoc)?.data as WorkflowStateDoc | undefined
    if (context === undefined || standing?.state === undefined || isEnded(standing.state)) return undefined
    // A cancel asked of the caller goes before an arrived answer (driveRun's order): its drive takes both.
    if ((Option.getOrUndefined(dueDoc)?.data as WorkflowDue | undefined)?.cancel !== undefined) return undefined
    const key = callKeyOf(calledBy)
    if (!openCalls(standing.state).some((call) => call.key === key && call.runId === calleeRunId)) return undefined
    const answer = answerOfEnding(ending)
    if (answer === undefined) return undefined
    const document = yield* loadWorkflowDocument(context)
    const now = yield* Clock.currentTimeMillis
    const input: WorkflowInput = { kind: "call_answered", key, at: now, answer }
    const applied = yield* apply(document, standing.state, input).pipe(
      Effect.provideService(ExpressionEvaluator, engine.evaluator)
    )
    if (applied === undefined) return undefined
    const prepared = yield* prepareInput(context, standing.version, standing.state, input, applied, ending.id, {
      within: true,
      kept: new Map()
    })
    return { context, prepared, applied }
  })

/** What a drive would do after the caller's input was recorded: its callees' answers and starts, its events. */
const carryOnAfter = (
  caller: { readonly context: RunContext; readonly prepared: PreparedInput; readonly applied: Applied },
  result: AppendResult
) =>
  Effect.suspend(() => {
    const recorded = caller.prepared.recorded(result)
    const moreToDo = recorded.answers.length > 0 || recorded.later.length > 0
    return Effect.all(
      [
        moreToDo ? Effect.forkDaemon(driveRun(caller.context.stream)) : Effect.void,
        isEnded(caller.applied.state) ? handOffToCaller(caller.context) : Effect.void
      ],
      { discard: true }
    )
  })

/**
 * Appends a callee's facts and, when they end a call of a going workflow run, that run's input taking the answer in
 * the same transaction (ADR 0405): the caller's next step has started when the callee's ending is recorded, with
 * no wake-up, read or commit between them. The caller's input is decided under its run lock at the version its
 * state document holds; if the caller moved meanwhile (another instance), or anything of its input cannot be
 * decided, the callee's facts are appended alone and the caller takes the answer as before, from its due document
 * and the wake-up of the ending. A conflict on the callee's own stream is the caller's of this function to decide.
 */
export const appendCarryingCaller = (
  append: StreamAppend
): Effect.Effect<AppendResult, VersionConflict | StoreUnavailable, DriveServices> =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const answered = callAnswered(append)
    if (answered === undefined) return yield* ledger.append([append])
    const engine = yield* WorkflowEngine
    const callerStream = callerStreamOf(append.stream, answered.calledBy)
    const calleeRunId = append.stream.slice(append.stream.lastIndexOf("/") + 1)
    return yield* engine.locks.withLock(
      callerStream,
      Effect.gen(function* () {
        const caller = yield* prepareCallerInput(callerStream, answered.ending, answered.calledBy, calleeRunId).pipe(
          Effect.catchAllCause((cause) =>
            Effect.as(
              Effect.logWarning(`RunLedger workflow engine: could not carry ${callerStream} on with an answer`, cause),
              undefined
            )
          )
        )
        if (caller === undefined) return yield* ledger.append([append])
        const carried = yield* ledger
          .append([append, ...caller.prepared.appends], { origin: caller.prepared.origin })
          .pipe(
            Effect.map(Option.some),
            Effect.catchTag("VersionConflict", (conflict) =>
              conflict.stream === append.stream ? Effect.fail(conflict) : Effect.succeed(Option.none())
            )
          )
        if (Option.isNone(carried)) return yield* ledger.append([append])
        yield* carryOnAfter(caller, carried.value)
        return carried.value
      })
    )
  })
