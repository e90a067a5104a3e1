import type { Fact } from "../../domain/Fact.js"
import { runEndingTypes } from "../../interactions/interactionFacts.js"
import type { Projection, ViewDoc, ViewKey } from "../../ports/Views.js"
import type { RunCancelRequested, RunStarted } from "../../runs/runFacts.js"
import { type StartingCall, type WorkflowInputApplied, workflowInputApplied } from "./workflowFacts.js"
import { calledByOf, callerStreamOf, callKeyOf, isWorkflowRunFact } from "./workflowRunAddress.js"

/** The view of when each going workflow run must next be looked at: its timers, answered calls and cancels. */
export const workflowDueView = "workflow_due"

/** The one partition of the due view, sorted by when to look. */
export const workflowDuePartition = "due"

/** Sorts after every time: a run that waits for nothing the engine can see coming. */
const never = "9999-12-31T23:59:59.999Z"

/**
 * What is waiting for a going workflow run: when its earliest timer is due, its open calls, the calls it started
 * whose callee has not recorded its start yet, the calls whose callee ended since (call key → when), and a cancel
 * asked and not yet applied. The host reads this view in due order (ADR 0271).
 */
export interface WorkflowDue {
  readonly stream: string
  readonly next_due_at?: string
  readonly open_calls: ReadonlyArray<string>
  readonly starting: Readonly<Record<string, StartingCall & { readonly at: string }>>
  readonly arrivals: Readonly<Record<string, string>>
  readonly cancel?: { readonly kind: string; readonly reason?: string; readonly at: string; readonly by: string }
}

/**
 * How long after it was recorded a call's mark (a callee to start, a callee that ended) makes its run due. The
 * drive or the wake-up that recorded it takes it up at once; the due view is the backstop for a crash in between,
 * and its timer loop, on whichever instance holds the sweeps lease, would otherwise drive the run beside the drive
 * carrying on with it, the two conflicting at every step (ADR 0279).
 */
export const handOverMillis = 2_000

/** The last time handed over, kept: the facts of one append carry the same few times, each asked for again. */
let lastHandOver: { readonly at: string; readonly handedOver: string } | undefined

const handedOver = (at: string): string => {
  if (lastHandOver?.at !== at)
    lastHandOver = { at, handedOver: new Date(Date.parse(at) + handOverMillis).toISOString() }
  return lastHandOver.handedOver
}

const earliest = (due: WorkflowDue): string => {
  // Marks are handed over a fixed time after they were recorded: the earliest mark is handed over first.
  let mark: string | undefined
  for (const at of Object.values(due.arrivals)) if (mark === undefined || at < mark) mark = at
  for (const call of Object.values(due.starting)) if (mark === undefined || call.at < mark) mark = call.at
  let sort = due.next_due_at ?? never
  const handOver = mark === undefined ? undefined : handedOver(mark)
  if (handOver !== undefined && handOver < sort) sort = handOver
  if (due.cancel !== undefined && due.cancel.at < sort) sort = due.cancel.at
  return sort
}

const docOf = (key: ViewKey, due: WorkflowDue): ViewDoc => ({ id: key.id, sort: earliest(due), data: due })

const isRunEnding = (type: string): boolean => (runEndingTypes as ReadonlyArray<string>).includes(type)

/** The due documents a fact changes: its own run's, and (for a called run's start or ending) its caller's. */
const keysOf = (fact: Fact): ReadonlyArray<ViewKey> => {
  const keys: Array<ViewKey> = []
  if (isWorkflowRunFact(fact))
    keys.push({ view: workflowDueView, partition: workflowDuePartition, id: fact.metadata.stream })
  if (fact.type === "run_started" || isRunEnding(fact.type)) {
    const calledBy = calledByOf(fact)
    if (calledBy !== undefined)
      keys.push({
        view: workflowDueView,
        partition: workflowDuePartition,
        id: callerStreamOf(fact.metadata.stream, calledBy)
      })
  }
  return keys
}

/** A caller's document as a called run's start or ending changes it. */
const calleeMoved = (due: WorkflowDue, key: ViewKey, fact: Fact): ViewDoc => {
  const call = callKeyOf(calledByOf(fact)!)
  if (fact.type === "run_started") {
    if (!(fact.data as RunStarted).finishes_later) return docOf(key, due)
    const { [call]: _started, ...starting } = due.starting
    return docOf(key, { ...due, starting })
  }
  if (!due.open_calls.includes(call)) return docOf(key, due)
  return docOf(key, { ...due, arrivals: { ...due.arrivals, [call]: fact.metadata.at } })
}

/** A run's document after one of its inputs. */
const inputApplied = (due: WorkflowDue, key: ViewKey, fact: Fact): ViewDoc | undefined => {
  const data = fact.data as WorkflowInputApplied
  if (data.ended) return undefined
  const answered = new Set(data.answered)
  const open = new Set(data.open_calls.filter((call) => !answered.has(call)))
  // Built member by member, without `delete` or an object rest: call keys are no identifiers, and either would
  // turn these objects into dictionaries on every input.
  const arrivals: Record<string, string> = {}
  for (const call of Object.keys(due.arrivals)) if (open.has(call)) arrivals[call] = due.arrivals[call]!
  const starting: Record<string, StartingCall & { at: string }> = {}
  for (const call of Object.keys(due.starting)) if (open.has(call)) starting[call] = due.starting[call]!
  for (const entry of data.starting ?? [])
    if (!answered.has(entry.key)) starting[entry.key] = { ...entry, at: fact.metadata.at }
  const cancel = data.input.kind === "cancel_requested" ? undefined : due.cancel
  const next: WorkflowDue = {
    stream: due.stream,
    open_calls: data.open_calls,
    starting,
    arrivals,
    ...(data.next_due_at === undefined ? {} : { next_due_at: data.next_due_at }),
    ...(cancel === undefined ? {} : { cancel })
  }
  return docOf(key, next)
}

/**
 * Folds what a going workflow run waits for into one document per run (ADR 0271): its `run_started` opens it, due
 * after the hand-over time, since the request that started it drives it at once (a start whose first input a crash
 * lost is taken up then, and no timer loop drives a run beside the request starting it: ADR 0406); each
 * `workflow_input_applied` sets the next timer, the open calls and the calls it started; the start of a called run
 * that finishes later clears its call's starting mark (one that finishes within its call keeps it until it
 * answers, so a crash in between runs it again), and its ending marks the call arrived on the caller's document in
 * the same append as that ending, so no wake-up can be lost; a cancel marks itself; the run's own ending removes
 * the document.
 */
export const workflowDueProjection: Projection = {
  view: workflowDueView,
  types: ["run_started", workflowInputApplied, "run_cancel_requested", ...runEndingTypes],
  keys: keysOf,
  apply: (current, fact, key) => {
    const due = current?.data as WorkflowDue | undefined
    if (key.id !== fact.metadata.stream) return due === undefined ? undefined : calleeMoved(due, key, fact)
    if (fact.type === "run_started")
      return docOf(key, {
        stream: key.id,
        next_due_at: handedOver(fact.metadata.at),
        open_calls: [],
        starting: {},
        arrivals: {}
      })
    if (due === undefined) return undefined
    if (fact.type === workflowInputApplied) return inputApplied(due, key, fact)
    if (fact.type !== "run_cancel_requested") return undefined
    if (due.cancel !== undefined) return current
    const data = fact.data as RunCancelRequested
    return docOf(key, {
      ...due,
      cancel: {
        kind: data.kind,
        ...(data.reason === undefined ? {} : { reason: data.reason }),
        at: fact.metadata.at,
        by: fact.metadata.by
      }
    })
  }
}
