import { Effect } from "effect"
import { jsonBytes } from "../../domain/utf8Bytes.js"
import type { WorkflowDocument } from "../../formats/workflow/WorkflowDocument.js"
import { ExpressionEvaluator } from "../expressions/ExpressionEvaluator.js"
import { cancelList } from "./cancelFrames.js"
import { driveList } from "./drive.js"
import type { RunEnding } from "./EngineOutput.js"
import { evaluateDuration, evaluateTemplate } from "./evaluation.js"
import { type Raised, runtimeFault, Stopped, timeoutFault } from "./faults.js"
import { frameById, type ListOutcome, newList, type Signal } from "./frames.js"
import type { Interpret, RunStateData } from "./Interpreter.js"
import { copyJson } from "./jsonValues.js"
import { slotFor } from "./listenTask.js"
import { armTimer, disarmTimer, inputWallTime, type Machine } from "./Machine.js"
import type { Fault, RunState } from "./RunStateShape.js"
import { countRecorded, holdsTooMuch, keepsTooMuch, maxHistoryBytes, recordedChange } from "./recordedChange.js"
import { rejectedBy } from "./runEnding.js"
import { StepRecorder } from "./StepRecorder.js"
import { rememberStateChange, type StatePatch } from "./statePatch.js"
import { taskAt, taskIndex } from "./taskIndex.js"
import { runVariables } from "./variables.js"
import type { CancelKind, RunEvent, WorkflowInput } from "./WorkflowInput.js"

/** Inputs a run takes at most (workflow-format.md §15). */
export const maxInputs = 100_000
/** Events waiting in the inbox at most, and their size. */
export const maxInboxEvents = 64
export const maxInboxBytes = 1_048_576
/** Events a run receives over its life at most, and their size. */
export const maxReceived = 1_024
export const maxReceivedBytes = 4 * 1_048_576
/** The largest run output, as JSON (seed: "Workflow 1,048,574 bytes"). */
export const maxOutputBytes = 1_048_574
/** `$runtime.version` when the host gives none. */
export const defaultRuntimeVersion = "0.1.0"

const stopped = (title: string, detail: string) =>
  new Stopped({ error: runtimeFault("runtime", 500, "/", title, detail).error })

/**
 * Ends the run (workflow-format.md §14, §16.1): what is under way is cancelled (calls with `kind`), every timer
 * disarmed, every listen closed, the inbox emptied, and `settle` given. A settled run holds nothing open.
 */
const settle = (machine: Machine, ending: RunEnding, kind: CancelKind): void => {
  const { state, outputs } = machine
  if (state.root !== undefined) cancelList(machine, state.root, kind)
  state.root = undefined
  for (const [key, call] of Object.entries(state.calls)) {
    outputs.push({ kind: "cancel_call", key, runId: call.runId, cancelKind: kind })
  }
  state.calls = {}
  for (const [key, listen] of Object.entries(state.listens)) {
    if (listen.filters.length > 0) outputs.push({ kind: "unlisten", key })
  }
  state.listens = {}
  for (const id of Object.keys(state.timers)) disarmTimer(machine, id)
  state.inbox = []
  state.ended = ending
  outputs.push({ kind: "settle", ending })
}

const documentVariables = (machine: Machine, data: unknown) => ({ $data: data, ...runVariables(machine) })

/** The run's last task handed on `value`: the document's `output.as`, within the output bound, then succeeded. */
const succeed = (machine: Machine, value: unknown): Effect.Effect<void> => {
  const { outputAs } = machine.document
  const output =
    outputAs === undefined
      ? Effect.succeed(value)
      : evaluateTemplate(machine, outputAs, documentVariables(machine, value), "/output/as")
  return Effect.match(output, {
    onFailure: (raised) => settle(machine, rejectedBy(raised.fault), "parent_ended"),
    onSuccess: (output) => {
      const bytes = jsonBytes(output)
      if (bytes <= maxOutputBytes) return settle(machine, { status: "succeeded", output }, "parent_ended")
      settle(
        machine,
        {
          status: "rejected",
          reason: "conflict",
          kind: "oversized",
          detail: `The workflow's output holds ${bytes} bytes as JSON, more than the ${maxOutputBytes} a run may give.`
        },
        "parent_ended"
      )
    }
  })
}

/** What the root list's outcome means for the run. */
const finishRoot = (machine: Machine, outcome: ListOutcome): Effect.Effect<void> => {
  switch (outcome.tag) {
    case "waiting":
      return Effect.void
    case "raised":
      return Effect.sync(() => settle(machine, rejectedBy(outcome.fault), "parent_ended"))
    case "done":
    case "end":
      return succeed(machine, outcome.value)
  }
}

/** Moves the run's tree with a signal for one of its frames. */
const driveRoot = (machine: Machine, signal: Signal): Effect.Effect<void, Stopped> => {
  const root = machine.state.root
  if (root === undefined) return Effect.void
  return Effect.flatMap(driveList(machine, root, machine.state, {}, signal, "input"), (outcome) =>
    finishRoot(machine, outcome)
  )
}

/** A document-level error (input.from, the run's timeout) ends the run at once. */
const rejectOnRaise = <A>(machine: Machine, effect: Effect.Effect<A, Raised>) =>
  Effect.catchTag(effect, "Raised", (raised) =>
    Effect.sync(() => {
      settle(machine, rejectedBy(raised.fault), "parent_ended")
      return undefined
    })
  )

/**
 * Begins the run (§5.1): the document's timeout evaluated, `input.from` on the raw input, then the root list; a
 * run still going after its first input arms its timeout and its overrun timer at `limits.endsBy`.
 */
const begin = (machine: Machine): Effect.Effect<void, Stopped> =>
  Effect.gen(function* () {
    const { state, document } = machine
    const timeout =
      document.timeout === undefined
        ? undefined
        : yield* rejectOnRaise(
            machine,
            evaluateDuration(machine, document.timeout.after, documentVariables(machine, state.input), "/timeout")
          )
    if (state.ended !== undefined) return
    const first = document.inputFrom
    const data =
      first === undefined
        ? state.input
        : yield* rejectOnRaise(
            machine,
            evaluateTemplate(machine, first, documentVariables(machine, state.input), "/input/from")
          )
    if (state.ended !== undefined) return
    state.root = newList(machine, "", "do", data)
    const outcome = yield* driveList(machine, state.root, state, {}, undefined, "input")
    yield* finishRoot(machine, outcome)
    if (state.ended !== undefined) return
    if (timeout !== undefined) armTimer(machine, state.startedAt + timeout, { kind: "run_timeout" })
    armTimer(machine, state.limits.endsBy, { kind: "overrun" })
  })

/** What an event comes as: sent to the run, or a playbook event offered to the open listens `to` (all if absent). */
type Arrival = { readonly offered: false } | { readonly offered: true; readonly to?: ReadonlyArray<string> }

/**
 * Which open listen takes an event (§8.1), in the order they opened, as the signal to deliver; or none. An offered
 * event reaches only listens that registered for playbook events and were open when it was recorded (ADR 0295).
 */
const takerOf = (machine: Machine, event: RunEvent, arrival: Arrival): Effect.Effect<Signal | undefined> =>
  Effect.gen(function* () {
    const { state } = machine
    const offered = arrival.offered
    const listens = Object.entries(state.listens)
      .filter(
        ([key, listen]) =>
          !offered || (listen.filters.length > 0 && (arrival.to === undefined || arrival.to.includes(key)))
      )
      .map(([, listen]) => listen)
      .sort((left, right) => left.frame - right.frame)
    for (const listen of listens) {
      const frame = state.root === undefined ? undefined : frameById(state.root, listen.frame)
      const task = taskAt(machine.index, listen.reference)
      if (frame?.body?.kind !== "listen" || task.body.kind !== "listen") continue
      const slot = yield* Effect.either(slotFor(machine, task.body, frame.body.taken, event, task.reference, offered))
      if (slot._tag === "Left") return { target: frame.id, kind: "event_failed", fault: slot.left.fault } as const
      if (slot.right >= 0) return { target: frame.id, kind: "event", event, slot: slot.right } as const
    }
    return undefined
  })

/**
 * An event for the run (§8.1): counted against the run's lifetime limits, taken by the first open listen it fits,
 * else kept in the inbox (a sent event) or stale (an offered one). Returns whether it applies.
 */
const receive = (machine: Machine, event: RunEvent, key: string, arrival: Arrival): Effect.Effect<boolean, Stopped> =>
  Effect.gen(function* () {
    const { state } = machine
    const signal = yield* takerOf(machine, event, arrival)
    if (signal === undefined && arrival.offered) return false
    const bytes = jsonBytes(event)
    machine.seen.push(event.id)
    // An offered event is known by its record id too (§8.1): the same record offered again is stale.
    if (arrival.offered && key !== event.id) machine.seen.push(key)
    state.counters.received += 1
    state.counters.receivedBytes += bytes
    if (state.counters.received > maxReceived || state.counters.receivedBytes > maxReceivedBytes) {
      return yield* stopped("Too many events", "a run takes at most 1,024 events or 4 MiB over its life")
    }
    if (signal !== undefined) {
      yield* driveRoot(machine, signal)
      return true
    }
    state.inbox.push(event)
    if (state.inbox.length > maxInboxEvents || jsonBytes(state.inbox) > maxInboxBytes) {
      return yield* stopped("The inbox is full", "at most 64 events or 1 MiB wait in a run's inbox")
    }
    return true
  })

const documentTimeout = (): Fault => timeoutFault("/", "The run timed out")

/** Applies an input to a going run; `false` when it turns out stale (an offered event no listen takes). */
const take = (machine: Machine, input: WorkflowInput): Effect.Effect<boolean, Stopped> => {
  const { state } = machine
  switch (input.kind) {
    case "started":
      return Effect.succeed(false)
    case "timer_fired": {
      // A fired timer is no longer armed: whatever it moves finds it gone.
      const timer = state.timers[input.key]!
      delete state.timers[input.key]
      const { purpose } = timer
      if (purpose.kind === "run_timeout") {
        return Effect.sync(() => settle(machine, rejectedBy(documentTimeout()), "deadline")).pipe(Effect.as(true))
      }
      if (purpose.kind === "overrun") {
        const ending: RunEnding = {
          status: "rejected",
          reason: "cancelled",
          kind: "overrun",
          detail: "The run reached its longest duration"
        }
        return Effect.sync(() => settle(machine, ending, "parent_ended")).pipe(Effect.as(true))
      }
      if (!("frame" in purpose)) return Effect.succeed(false)
      const signal: Signal = { target: purpose.frame, kind: "timer", id: input.key, purpose }
      return Effect.as(driveRoot(machine, signal), true)
    }
    case "call_answered": {
      const call = state.calls[input.key]!
      return Effect.as(
        driveRoot(machine, { target: call.frame, kind: "answer", key: input.key, answer: input.answer }),
        true
      )
    }
    case "event_received":
      return receive(
        machine,
        input.event,
        input.key,
        input.offered === true
          ? { offered: true, ...(input.to === undefined ? {} : { to: input.to }) }
          : { offered: false }
      )
    case "cancel_requested": {
      const ending: RunEnding = {
        status: "rejected",
        reason: "cancelled",
        kind: input.cancelKind,
        detail: input.reason ?? `The run was cancelled (${input.cancelKind})`
      }
      return Effect.sync(() => settle(machine, ending, "parent_ended")).pipe(Effect.as(true))
    }
  }
}

/** Whether an input is stale for a going run (§16.1): a timer no longer armed, a call no longer open, a repeat. */
const isStale = (state: RunState, input: WorkflowInput): boolean => {
  switch (input.kind) {
    case "started":
      return true
    case "timer_fired":
      return state.timers[input.key] === undefined
    case "call_answered":
      return state.calls[input.key] === undefined
    case "event_received":
      return (
        state.seen !== undefined &&
        (state.seen.includes(input.event.id) || (input.offered === true && state.seen.includes(input.key)))
      )
    case "cancel_requested":
      return false
  }
}

/** The input's time (§16.1): never before the previous input's, and a timer never before its due time. */
const timeOf = (state: RunState | undefined, input: WorkflowInput): number => {
  const at = Math.max(input.at, state?.lastAt ?? input.at)
  return input.kind === "timer_fired" && state !== undefined ? Math.max(at, state.timers[input.key]!.dueAt) : at
}

/** The state of a run its `started` input begins. */
const initialState = (input: Extract<WorkflowInput, { kind: "started" }>): RunState => ({
  version: 1,
  runId: input.key,
  startedAt: input.at,
  input: input.input,
  seed: input.seed,
  draws: 0,
  limits: input.limits,
  runtimeVersion: input.runtimeVersion ?? defaultRuntimeVersion,
  lastAt: input.at,
  context: {},
  nextTimer: 0,
  nextFrame: 0,
  runs: {},
  counters: {
    inputs: 0,
    tasksWithoutWait: 0,
    emitted: 0,
    emittedBytes: 0,
    received: 0,
    receivedBytes: 0,
    recorded: 0
  },
  timers: {},
  calls: {},
  listens: {},
  inbox: []
})

/**
 * A deep copy of a state for an input to change, sharing its limits, which no input changes (so the state's diff
 * passes them at once). Keys keep their order, which the recorded patch rebuilds.
 */
const copyOf = (previous: RunState): RunState => {
  const state = copyJson({ ...previous, limits: null }) as unknown as { limits: RunState["limits"] }
  state.limits = previous.limits
  return state as unknown as RunState
}

/**
 * The workflow interpreter (architecture.md, The workflow engine; ADR 0251): applies one input to a run's state,
 * a deep copy of which it changes, and returns the new state, the step entries the input moved and the outputs.
 * Stale inputs, and any input to an ended run, give `undefined`.
 */
export const apply: Interpret = (document: WorkflowDocument, given: RunStateData | undefined, input: WorkflowInput) =>
  Effect.gen(function* () {
    const previous = given as RunState | undefined
    if (previous === undefined ? input.kind !== "started" : previous.ended !== undefined || isStale(previous, input)) {
      return undefined
    }
    const evaluator = yield* ExpressionEvaluator
    // The 2 s of an input's expressions are wall-clock time, measured as the evaluator measures it (the machine's
    // clock, not Effect's Clock, which a test may have moved): they bound the work, never the run's time.
    const wall = Date.now()
    const now = timeOf(previous, input)
    const state =
      previous === undefined ? initialState(input as Extract<WorkflowInput, { kind: "started" }>) : copyOf(previous)
    state.lastAt = now
    const machine: Machine = {
      document,
      index: taskIndex(document),
      state,
      now,
      outputs: [],
      steps: new StepRecorder(),
      evaluator,
      deadline: wall + inputWallTime,
      work: 0,
      tasks: 0,
      seen: []
    }
    state.counters.inputs += 1
    const applied = Effect.gen(function* () {
      if (state.counters.inputs > maxInputs) {
        return yield* stopped("Too many inputs", `a run takes at most ${maxInputs} inputs`)
      }
      if (previous === undefined) {
        yield* begin(machine)
        return true
      }
      return yield* take(machine, input)
    }).pipe(
      Effect.catchTag("Stopped", (stop) =>
        Effect.sync(() => {
          settle(machine, rejectedBy({ error: stop.error }), "parent_ended")
          return true
        })
      )
    )
    if (!(yield* applied)) return undefined
    const patch = withinRecordBounds(machine, previous)
    rememberStateChange(patch, given, state as unknown as RunStateData)
    return {
      state: state as unknown as RunStateData,
      steps: machine.steps.entries,
      outputs: machine.outputs,
      patch,
      seen: machine.seen
    }
  })

/**
 * The limits of §15 on what a run holds and records (ADR 0297), checked once an input is applied: the data it holds
 * (4 MiB), the change one input records (1.5 MiB: a value kept across a wait with the rest of the change) and the
 * recorded history (512 MiB). Past any of them the run is rejected at once (`ERR/runtime` 500, never caught) and the
 * input records that ending instead. The input's state patch, its change counted into the history.
 */
const withinRecordBounds = (machine: Machine, previous: RunState | undefined): StatePatch => {
  const { state } = machine
  const reject = (title: string, detail: string) => {
    settle(machine, rejectedBy({ error: runtimeFault("runtime", 500, "/", title, detail).error }), "parent_ended")
    return recordedChange(previous, state, machine.steps.entries)
  }
  let change = recordedChange(previous, state, machine.steps.entries)
  if (state.ended === undefined && holdsTooMuch(machine.document, previous, state, change))
    change = reject(
      "The run holds too much data",
      "a run holds at most 4 MiB, with its document and 4 KiB per task under way"
    )
  if (state.ended === undefined && keepsTooMuch(change, machine.steps.entries))
    change = reject("The run keeps too large a value", "one input records at most 1,572,864 bytes of change")
  if (state.ended === undefined && (previous?.counters.recorded ?? 0) + change.bytes > maxHistoryBytes)
    change = reject("The run's history is too long", "a run records at most 512 MiB of history")
  return countRecorded(previous, state, change)
}
