import { Effect, Option } from "effect"
import type { Fact, NewFactMetadata } from "../../domain/Fact.js"
import type { Formats } from "../../formats/DefinitionFormat.js"
import { type DraftFact, placeFacts } from "../../ledger/decide.js"
import { playbookEventStream } from "../../playbookEvents/eventPublished.js"
import type { ContentStore } from "../../ports/ContentStore.js"
import type { Ids } from "../../ports/Ids.js"
import { type AppendResult, Ledger, type StreamAppend, type VersionConflict } from "../../ports/Ledger.js"
import type { StoreUnavailable } from "../../ports/StoreUnavailable.js"
import { Views } from "../../ports/Views.js"
import { foldRun } from "../../runs/foldRun.js"
import type { RunState } from "../../runs/RunRecord.js"
import { runStream } from "../../runs/runFacts.js"
import { runsPartition, runsView } from "../../runs/runsProjection.js"
import type { Applied, RunStateData } from "../engine/Interpreter.js"
import { nextDueAt, openCalls, openListens } from "../engine/runState.js"
import type { CallAnswer, WorkflowInput } from "../engine/WorkflowInput.js"
import { callsBeyondBound } from "../tree/openCallBound.js"
import { emittedEventFact } from "./emittedEventFact.js"
import { endingFact } from "./endingFact.js"
import type { RunContext } from "./RunContext.js"
import {
  answerOfRun,
  type CalleeDefinitions,
  type CallWithin,
  type StartCallOutput,
  startCallWithin
} from "./startCall.js"
import { type WorkflowEngine, workflowDriveOrigin, workflowTimerOrigin } from "./WorkflowEngine.js"
import { type WorkflowInputApplied, workflowInputApplied } from "./workflowFacts.js"

/** The metadata every fact of a workflow run carries: the run, its definition, its chain and its call. */
export const runMetadata = (context: RunContext, causation: string | null): Partial<NewFactMetadata> => {
  const started = context.started.metadata
  return {
    run_id: context.runId,
    definition: { type: "workflow", name: context.name, version: context.version },
    correlation_id: context.correlationId,
    causation_id: causation,
    ...(started.called_by === undefined ? {} : { called_by: started.called_by }),
    ...(started.call_depth === undefined ? {} : { call_depth: started.call_depth }),
    ...(started.acts_for === undefined ? {} : { acts_for: started.acts_for }),
    ...(started.trigger === undefined ? {} : { trigger: started.trigger }),
    ...(started.depth === undefined ? {} : { depth: started.depth })
  }
}

/** The receipt `workflow_input_applied` keeps of an input: its kind and key, an answer's status, an event's type. */
const receiptOf = (input: WorkflowInput): Pick<WorkflowInputApplied, "input" | "answer" | "event_type"> => {
  const receipt = { input: { kind: input.kind, key: input.key } }
  if (input.kind === "event_received") return { ...receipt, event_type: input.event.type }
  if (input.kind !== "call_answered") return receipt
  const answer = input.answer
  return {
    ...receipt,
    answer: {
      status: answer.status,
      ...(answer.status === "rejected" && answer.kind !== undefined ? { kind: answer.kind } : {}),
      ...(answer.status === "rejected" && answer.because !== undefined ? { because: answer.because } : {})
    }
  }
}

/** The run's open listens registered for playbook events, each with the literal types it hears, when any is. */
const listensOf = (state: RunStateData): Pick<WorkflowInputApplied, "listens"> => {
  const registered = openListens(state).filter((listen) => listen.filters.length > 0)
  if (registered.length === 0) return {}
  const listens = registered.map((listen) => [listen.key, [...new Set(listen.filters.map((filter) => filter.type))]])
  return { listens: Object.fromEntries(listens) }
}

/** What one recorded input appended: the input's fact as placed and the run stream's new version. */
export interface Recorded {
  readonly fact: Fact
  readonly version: number
  /** The answers of the calls the input started that answered within its append (or could not start). */
  readonly answers: ReadonlyArray<{ readonly key: string; readonly answer: CallAnswer }>
  /** The calls the input started whose callee starts on its own now the input is recorded (workflows). */
  readonly later: ReadonlyArray<StartCallOutput>
}

/** How an input's calls start: within its append (`kept` holds the callees' definitions the drive read), or after. */
export type CallsStart = { readonly within: true; readonly kept: CalleeDefinitions } | { readonly within: false }

/**
 * Appends one applied input as one transaction (workflow-format.md §16.1): its `workflow_input_applied` with the
 * steps, the state patch and the outputs the engine keeps (calls started, next timer), the run's ending when it
 * settled, a cancel request on each going callee it cancels, and each event it emitted on the playbook's events
 * stream — so a crash after the append repeats none of them and a crash before it records nothing — and, when
 * `calls` says within, the start and ending of each callee that records with its start (ADR 0278), so a call step
 * costs one commit; a callee's stream that already holds a run makes the input be recorded again without them (its
 * callee then starts on its own). The run's stream must still be at `version`: another instance that applied an
 * input first makes this a `VersionConflict`.
 */
export const recordInput = (
  context: RunContext,
  version: number,
  before: RunStateData | undefined,
  input: WorkflowInput,
  applied: Applied,
  causation: string,
  calls: CallsStart
): Effect.Effect<
  Recorded,
  VersionConflict | StoreUnavailable,
  Ledger | Views | Ids | Formats | ContentStore | WorkflowEngine
> =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const prepared = yield* prepareInput(context, version, before, input, applied, causation, calls)
    const result = yield* ledger.append(prepared.appends, { origin: prepared.origin }).pipe(
      Effect.map(Option.some),
      Effect.catchTag("VersionConflict", (error) =>
        error.stream !== context.stream && prepared.startsWithin ? Effect.succeed(Option.none()) : Effect.fail(error)
      )
    )
    if (Option.isNone(result))
      return yield* recordInput(context, version, before, input, applied, causation, { within: false })
    return prepared.recorded(result.value)
  })

/** An input ready to append: its appends and origin, and what the append recorded once it went through. */
export interface PreparedInput {
  readonly appends: ReadonlyArray<StreamAppend>
  readonly origin: string
  /** Whether callees start within the appends: a conflict on a callee's stream asks for the input without them. */
  readonly startsWithin: boolean
  readonly recorded: (result: AppendResult) => Recorded
}

/**
 * Decides the appends of one applied input (see `recordInput`) without appending them, so that another append can
 * carry them in its own transaction (ADR 0405).
 */
export const prepareInput = (
  context: RunContext,
  version: number,
  before: RunStateData | undefined,
  input: WorkflowInput,
  applied: Applied,
  causation: string,
  calls: CallsStart
): Effect.Effect<PreparedInput, StoreUnavailable, Views | Ids | Formats | ContentStore | Ledger | WorkflowEngine> =>
  Effect.gen(function* () {
    const views = yield* Views
    const settle = applied.outputs.find((output) => output.kind === "settle")
    const nextDue = settle === undefined ? nextDueAt(applied.state) : undefined
    const setsTimer = nextDue !== undefined && nextDue !== (before === undefined ? undefined : nextDueAt(before))
    const starting = applied.outputs.flatMap((output) =>
      output.kind === "start_call"
        ? [
            {
              key: output.key,
              run_id: output.runId,
              reference: output.reference,
              type: output.type,
              name: output.name,
              input: output.input,
              deadline_at: output.deadlineAt
            }
          ]
        : []
    )
    const openAfter = openCalls(applied.state)
    const openCallChange = openAfter.length - (before === undefined ? 0 : openCalls(before).length)
    const data: WorkflowInputApplied = {
      run_id: context.runId,
      ...receiptOf(input),
      step_count: applied.steps.length,
      steps: applied.steps,
      output_kinds: applied.outputs.map((output) => output.kind),
      patch: applied.patch,
      ...(nextDue === undefined ? {} : { next_due_at: new Date(nextDue).toISOString() }),
      ...(input.kind === "call_answered" ? { answered: [input.key] } : {}),
      open_calls: openAfter.map((call) => call.key),
      ...(openCallChange === 0 ? {} : { open_call_change: openCallChange }),
      ...(starting.length === 0 ? {} : { starting }),
      ...listensOf(applied.state),
      ...(applied.seen.length === 0 ? {} : { seen: applied.seen }),
      ended: settle !== undefined
    }
    const metadata = runMetadata(context, causation)
    const [inputFact] = yield* placeFacts([{ type: workflowInputApplied, data, metadata }], context.startedBy.id)
    const ending: Array<DraftFact> =
      settle?.kind === "settle"
        ? [
            {
              ...endingFact(settle.ending),
              metadata: {
                ...metadata,
                causation_id: inputFact!.id,
                first_started_at: context.started.metadata.first_started_at ?? context.started.metadata.at
              }
            }
          ]
        : []
    const endingFacts = yield* placeFacts(ending, context.startedBy.id)
    const appends: Array<StreamAppend> = [
      { stream: context.stream, expected: version, facts: [inputFact!, ...endingFacts] }
    ]
    for (const output of applied.outputs) {
      if (output.kind === "cancel_call") {
        const callee = yield* views.get({
          view: runsView,
          partition: runsPartition(context.org, context.playbook),
          id: output.runId
        })
        const run = Option.getOrUndefined(callee)?.data as RunState | undefined
        if (run === undefined || run.status !== "started" || run.cancel_requested_at !== undefined) continue
        const cancel = yield* placeFacts(
          [
            {
              type: "run_cancel_requested",
              data: { kind: output.cancelKind },
              metadata: {
                run_id: run.run_id,
                definition: { type: run.type, name: run.name, version: run.definition_version },
                correlation_id: context.correlationId,
                causation_id: inputFact!.id,
                ...(run.called_by === undefined ? {} : { called_by: run.called_by })
              }
            }
          ],
          context.startedBy.id
        )
        appends.push({ stream: runStream(context.org, context.playbook, run.run_id), expected: "any", facts: cancel })
      }
      if (output.kind === "emit") {
        const emitted = yield* placeFacts(
          [emittedEventFact(output.event, { ...metadata, causation_id: inputFact!.id })],
          context.startedBy.id
        )
        appends.push({
          stream: playbookEventStream(context.org, context.playbook, output.event.source, output.event.id),
          expected: "any",
          facts: emitted
        })
      }
    }
    const startCalls = applied.outputs.filter((output): output is StartCallOutput => output.kind === "start_call")
    const firstOfRoot = before === undefined && context.correlationId === context.runId
    const refused = yield* callsBeyondBound(context, openCallChange, startCalls, firstOfRoot)
    const decided: ReadonlyArray<CallWithin> = yield* Effect.forEach(startCalls, (call) => {
      const answer = refused.get(call.key)
      if (answer !== undefined) return Effect.succeed({ _tag: "Answer", key: call.key, answer } as const)
      return calls.within
        ? startCallWithin(context, call, inputFact!.id, calls.kept)
        : Effect.succeed({ _tag: "Later", call } as const)
    })
    for (const call of decided) if (call._tag === "Within") appends.push(...call.started.appends)
    const origin = setsTimer ? workflowTimerOrigin(nextDue) : workflowDriveOrigin
    return {
      appends,
      origin,
      startsWithin: decided.some((call) => call._tag === "Within"),
      recorded: (result: AppendResult): Recorded => {
        return {
          fact: result.facts.find((fact) => fact.id === inputFact!.id)!,
          version: result.versions.get(context.stream)!,
          answers: decided.flatMap((call) => answerWithin(call, result.facts)),
          later: decided.flatMap((call) => (call._tag === "Later" ? [call.call] : []))
        }
      }
    } satisfies PreparedInput
  })

/** The answer a call decided within the append has: at once, or its callee's run as the append recorded it. */
const answerWithin = (call: CallWithin, facts: ReadonlyArray<Fact>) => {
  if (call._tag === "Answer") return [{ key: call.key, answer: call.answer }]
  if (call._tag !== "Within") return []
  const run = facts.filter((fact) => fact.metadata.stream === call.started.stream).reduce(foldRun, undefined)
  const answer = run === undefined ? undefined : answerOfRun(run)
  return answer === undefined ? [] : [{ key: call.key, answer }]
}
