import { Clock, Effect, Option, Queue, Random } from "effect"
import type { Fact } from "../../domain/Fact.js"
import type { Formats } from "../../formats/DefinitionFormat.js"
import type { ContentStore } from "../../ports/ContentStore.js"
import type { Ids } from "../../ports/Ids.js"
import type { Ledger } from "../../ports/Ledger.js"
import { Views } from "../../ports/Views.js"
import { readRun } from "../../runs/readRun.js"
import { apply } from "../engine/apply.js"
import type { RunStateData } from "../engine/Interpreter.js"
import { armedTimers, isEnded, openCalls } from "../engine/runState.js"
import type { CallAnswer, RunEvent, WorkflowInput } from "../engine/WorkflowInput.js"
import { ExpressionEvaluator } from "../expressions/ExpressionEvaluator.js"
import { loadWorkflowDocument } from "./loadWorkflowDocument.js"
import { contextOf, type RunContext, readRunContext } from "./RunContext.js"
import { recordInput } from "./recordInput.js"
import { runLimits } from "./runLimits.js"
import { answerOfRun, type CalleeDefinitions, type StartCallOutput, startCall } from "./startCall.js"
import { WorkflowEngine } from "./WorkflowEngine.js"
import {
  type WorkflowDue,
  workflowDuePartition,
  workflowDueProjection,
  workflowDueView
} from "./workflowDueProjection.js"
import { calledByOf, callerStreamOf } from "./workflowRunAddress.js"
import { isRepeatedEvent } from "./workflowSeenProjection.js"
import { type WorkflowStateDoc, workflowStatesPartition, workflowStatesView } from "./workflowStatesProjection.js"

/** How often a drive reloads the run and applies again after another instance moved it first. */
const conflictRounds = 5

/** The most inputs one drive applies before it lets others go first (the host takes the run up again). */
const inputsPerDrive = 10_000

/** What the engine needs to drive a run. */
export type DriveServices = Ledger | Views | Ids | Formats | WorkflowEngine | ContentStore

/** A run as one drive holds it between inputs. */
interface Standing {
  state: RunStateData | undefined
  version: number
  /** The id of the latest fact that moved the run: what the next input is caused by. */
  cause: string
  /** Calls whose callee answered within this drive, in the order they answered. */
  readonly answers: Array<{ readonly key: string; readonly answer: CallAnswer }>
  /** What the due document said when the drive began, less what this drive applied since. */
  due: WorkflowDue | undefined
  /** The callees' definitions this drive read. */
  readonly definitions: CalleeDefinitions
}

const loadStanding = (context: RunContext) =>
  Effect.gen(function* () {
    const views = yield* Views
    const [stateDoc, dueDoc] = yield* Effect.all(
      [
        views.get({ view: workflowStatesView, partition: workflowStatesPartition, id: context.stream }),
        views.get({ view: workflowDueView, partition: workflowDuePartition, id: context.stream })
      ],
      { concurrency: 2 }
    )
    if (Option.isNone(stateDoc)) return undefined
    const doc = stateDoc.value.data as WorkflowStateDoc
    return {
      state: doc.state,
      version: doc.version,
      cause: context.started.id,
      answers: [] as Array<{ readonly key: string; readonly answer: CallAnswer }>,
      due: Option.getOrUndefined(dueDoc)?.data as WorkflowDue | undefined,
      definitions: new Map()
    } satisfies Standing
  })

/**
 * The standing of a run whose `run_started` this drive's request has just appended, as the projections fold that
 * fact (each begins its run's document anew on a start, whatever came before): no state yet, at the start's
 * position, due as the due projection makes it. Nothing is read; a fact another instance appended since makes the
 * first input's append conflict, and the drive loads the run.
 */
const standingOfStarted = (started: Fact): Standing => ({
  state: undefined,
  version: started.metadata.position,
  cause: started.id,
  answers: [],
  due: workflowDueProjection.apply(
    undefined,
    started,
    { view: workflowDueView, partition: workflowDuePartition, id: started.metadata.stream },
    () => undefined
  )?.data as WorkflowDue | undefined,
  definitions: new Map()
})

/** The next input a run takes, in the order the spec sets: answers in hand, a cancel, ended callees, due timers. */
const nextInput = (context: RunContext, standing: Standing, now: number) =>
  Effect.gen(function* () {
    if (standing.state === undefined) {
      const seed = yield* Random.nextIntBetween(0, 2 ** 31 - 1)
      const engine = yield* WorkflowEngine
      const startedAt = Date.parse(context.started.metadata.at)
      return {
        kind: "started",
        key: context.runId,
        at: now,
        input: (context.started.data as { input: unknown }).input,
        seed,
        limits: runLimits(startedAt, engine.maxRunMilliseconds, context.callDepth),
        runtimeVersion: engine.runtimeVersion
      } satisfies WorkflowInput
    }
    if (isEnded(standing.state)) return undefined
    const open = openCalls(standing.state)
    while (standing.answers.length > 0) {
      const { key, answer } = standing.answers.shift()!
      if (open.some((call) => call.key === key)) return { kind: "call_answered", key, at: now, answer } as WorkflowInput
    }
    const cancel = standing.due?.cancel
    if (cancel !== undefined)
      return {
        kind: "cancel_requested",
        key: context.runId,
        at: now,
        cancelKind: cancel.kind as Extract<WorkflowInput, { kind: "cancel_requested" }>["cancelKind"],
        ...(cancel.reason === undefined ? {} : { reason: cancel.reason })
      } satisfies WorkflowInput
    const arrived = Object.entries(standing.due?.arrivals ?? {}).sort(([, a], [, b]) => (a < b ? -1 : 1))
    for (const [key] of arrived) {
      const call = open.find((candidate) => candidate.key === key)
      if (call === undefined) continue
      const callee = yield* readRun(context.org, context.playbook, call.runId).pipe(Effect.option)
      const answer = Option.isSome(callee) ? answerOfRun(callee.value) : undefined
      if (answer !== undefined) return { kind: "call_answered", key, at: now, answer } satisfies WorkflowInput
    }
    const [timer] = armedTimers(standing.state)
    if (timer !== undefined && timer.dueAt <= now)
      return { kind: "timer_fired", key: timer.id, at: Math.max(now, timer.dueAt) } satisfies WorkflowInput
    return undefined
  })

/** Starts the callees of `calls`, keeping the answers of those that ended at once for the next inputs. */
const startCalls = (context: RunContext, standing: Standing, calls: ReadonlyArray<StartCallOutput>) =>
  Effect.forEach(
    calls,
    (call) =>
      Effect.map(startCall(context, call, standing.cause, standing.definitions), (answer) => {
        if (answer !== undefined) standing.answers.push({ key: call.key, answer })
      }),
    { discard: true }
  )

/** What this drive applied of what the due document said: answered calls, an applied cancel, the calls started. */
const forgetApplied = (standing: Standing, input: WorkflowInput) => {
  const due = standing.due
  if (due === undefined) return
  if (input.kind === "cancel_requested") {
    const { cancel: _cancel, ...rest } = due
    standing.due = rest
  }
  if (input.kind === "call_answered") {
    const { [input.key]: _arrived, ...arrivals } = due.arrivals
    standing.due = { ...(standing.due ?? due), arrivals }
  }
}

/**
 * Drives one workflow run (architecture.md, The host): loads its state (one document, however long its history),
 * takes the inputs waiting for it one at a time — a start, answers of callees, a cancel, due timers — applying each
 * with the interpreter and recording it in one append at the version it loaded, then carries out the calls it
 * started (a callee that ends within its call answers the next input at once). Another instance that moved the run
 * first makes the append conflict: the drive loads the run again and decides anew. Within this process a run is
 * driven by one fiber at a time. Whether anything was applied.
 */
export const driveRun = (stream: string): Effect.Effect<boolean, never, DriveServices> =>
  Effect.gen(function* () {
    const engine = yield* WorkflowEngine
    return yield* engine.locks.withLock(stream, driveLocked(stream))
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.as(
        Effect.logWarning(`RunLedger workflow engine: could not drive ${stream}; it is tried again`, cause),
        false
      )
    )
  )

const driveLocked = (stream: string) =>
  Effect.gen(function* () {
    const context = yield* readRunContext(stream)
    if (context === undefined) return false
    return (yield* driveContext(context)).applied
  })

/** Drives the run whose `run_started` is `started`: what a workflow's `run_definition` does within its request. */
export const driveStarted = (started: Fact): Effect.Effect<void, never, DriveServices> =>
  Effect.gen(function* () {
    const engine = yield* WorkflowEngine
    yield* engine.locks.withLock(
      started.metadata.stream,
      driveContext(contextOf(started), undefined, standingOfStarted(started))
    )
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logWarning(
        `RunLedger workflow engine: could not drive ${started.metadata.stream}; it is tried again`,
        cause
      )
    )
  )

/** What a drive did: whether it applied anything, and whether the run was there to drive (started, not ended). */
export interface Drove {
  readonly applied: boolean
  readonly going: boolean
  /** Whether the given first input was taken (false when it was stale). */
  readonly firstTaken: boolean
  /** Whether the drive broke (the store failed, or a defect), so the input may not have been recorded. */
  readonly broke?: boolean
}

const driveContext = (context: RunContext, first?: (now: number) => WorkflowInput, known?: Standing) =>
  Effect.gen(function* () {
    const engine = yield* WorkflowEngine
    const document = yield* loadWorkflowDocument(context)
    let standing = known ?? (yield* loadStanding(context))
    if (standing === undefined || (standing.state !== undefined && isEnded(standing.state)))
      return { applied: false, going: false, firstTaken: false } satisfies Drove
    const pendingStarts = Object.values(standing.due?.starting ?? {})
    if (standing.state !== undefined && pendingStarts.length > 0) {
      const open = new Set(openCalls(standing.state).map((call) => call.key))
      yield* startCalls(
        context,
        standing,
        pendingStarts
          .filter((call) => open.has(call.key))
          .map((call) => ({
            kind: "start_call",
            key: call.key,
            runId: call.run_id,
            reference: call.reference,
            type: call.type,
            name: call.name,
            input: call.input,
            deadlineAt: call.deadline_at
          }))
      )
    }
    let applied = 0
    let conflicts = 0
    let pendingFirst = first
    let firstTaken = false
    while (applied < inputsPerDrive) {
      const now = yield* Clock.currentTimeMillis
      const input =
        pendingFirst !== undefined && standing.state !== undefined && !isEnded(standing.state)
          ? pendingFirst(now)
          : yield* nextInput(context, standing, now)
      if (input === undefined) break
      // A repeat of an event the run took or emitted is stale (ADR 0420: the ids are kept beside the state). Read
      // after the state, never beside it: an input another instance recorded between the two reads would leave a
      // state that took the event and a read that says it did not; read after, that input makes the append conflict.
      const repeated = input.kind === "event_received" && (yield* isRepeatedEvent(context.stream, input))
      const result = repeated
        ? undefined
        : yield* apply(document, standing.state, input).pipe(
            Effect.provideService(ExpressionEvaluator, engine.evaluator)
          )
      if (result === undefined) {
        if (input.kind === "event_received" && pendingFirst !== undefined) pendingFirst = undefined
        forgetApplied(standing, input)
        continue
      }
      const recorded = yield* recordInput(context, standing.version, standing.state, input, result, standing.cause, {
        within: true,
        kept: standing.definitions
      }).pipe(
        Effect.map(Option.some),
        Effect.catchTag("VersionConflict", () => Effect.succeed(Option.none()))
      )
      if (Option.isNone(recorded)) {
        if (++conflicts >= conflictRounds) break
        const reloaded = yield* loadStanding(context)
        if (reloaded === undefined) break
        standing = { ...reloaded, answers: standing.answers, definitions: standing.definitions }
        continue
      }
      applied++
      if (input.kind === "event_received" && pendingFirst !== undefined) {
        pendingFirst = undefined
        firstTaken = true
      }
      forgetApplied(standing, input)
      standing.state = result.state
      standing.version = recorded.value.version
      standing.cause = recorded.value.fact.id
      standing.answers.push(...recorded.value.answers)
      yield* startCalls(context, standing, recorded.value.later)
      if (isEnded(result.state)) yield* handOffToCaller(context)
    }
    if (applied >= inputsPerDrive || conflicts >= conflictRounds) yield* Queue.offer(engine.nudges, undefined)
    return { applied: applied > 0, going: true, firstTaken } satisfies Drove
  })

/**
 * Drives the run that called this one, now it ended (its ending marked the call arrived on the caller's due
 * document in the same append): the drive's own appends wake no host (ADR 0279), so it hands the caller on itself,
 * on a fiber of its own once this run's lock is let go.
 */
export const handOffToCaller = (context: RunContext) =>
  Effect.suspend(() => {
    const calledBy = calledByOf(context.started)
    return calledBy === undefined
      ? Effect.void
      : Effect.asVoid(Effect.forkDaemon(driveRun(callerStreamOf(context.stream, calledBy))))
  })

/**
 * Gives a run one event (workflow-format.md §8.1): sent to it by id (`send_run_event`), or a playbook event offered
 * to its open listens (those of `to`, when given). The run takes it as its next input and goes on as far as it can.
 * `going: false` when the stream holds no going workflow run; `firstTaken: false` when the run had already received
 * an event of that id (or, offered, no listen took it).
 */
export const applyEvent = (
  stream: string,
  event: RunEvent,
  key: string,
  offered: boolean,
  to?: ReadonlyArray<string>
): Effect.Effect<Drove, never, DriveServices> =>
  Effect.gen(function* () {
    const engine = yield* WorkflowEngine
    return yield* engine.locks.withLock(
      stream,
      Effect.gen(function* () {
        const context = yield* readRunContext(stream)
        if (context === undefined) return { applied: false, going: false, firstTaken: false }
        return yield* driveContext(context, (now) => ({
          kind: "event_received",
          key,
          at: now,
          event,
          ...(offered ? { offered: true } : {}),
          ...(offered && to !== undefined ? { to } : {})
        }))
      })
    )
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.as(Effect.logWarning(`RunLedger workflow engine: could not give ${stream} an event`, cause), {
        applied: false,
        going: true,
        firstTaken: false,
        broke: true
      })
    )
  )
