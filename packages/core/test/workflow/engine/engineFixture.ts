import { ManagedRuntime } from "effect"
import { expect } from "vitest"
import type { WorkflowDocument } from "../../../src/formats/workflow/WorkflowDocument.js"
import { apply } from "../../../src/workflow/engine/apply.js"
import type { EngineOutput, RunEnding } from "../../../src/workflow/engine/EngineOutput.js"
import type { Applied, RunStateData } from "../../../src/workflow/engine/Interpreter.js"
import { armedTimers, openCalls, runEnding } from "../../../src/workflow/engine/runState.js"
import type { StepEntry } from "../../../src/workflow/engine/StepEntry.js"
import { applyStatePatch, diffState, type StatePatch } from "../../../src/workflow/engine/statePatch.js"
import type {
  CallAnswer,
  CancelKind,
  RunEvent,
  RunLimits,
  WorkflowInput
} from "../../../src/workflow/engine/WorkflowInput.js"
import * as QuickJsExpressions from "../../../src/workflow/expressions/QuickJsExpressions.js"
import { readOrFail, workflow } from "../workflowFixture.js"

/** The production expression evaluator (QuickJS), one per test file. */
export const expressionRuntime = () => ManagedRuntime.make(QuickJsExpressions.layer)

/** The runtime a test file runs the interpreter on. */
export type EngineRuntime = ReturnType<typeof expressionRuntime>

/** When every test run starts: 2026-03-01T00:00:00Z. */
export const startAt = Date.parse("2026-03-01T00:00:00.000Z")

/** The run id of every test run. */
export const runId = "0b8f3c1e-6a55-4c1f-9a7e-3f2d1c0b9a88"

/** Limits of a root run of 30 days whose calls wait 70 s unless said otherwise. */
export const limitsOf = (overrides: Partial<RunLimits> = {}): RunLimits => ({
  endsBy: startAt + 30 * 86_400_000,
  withinCallWait: 70_000,
  defaultCallWait: 70_000,
  callDepth: 0,
  ...overrides
})

/** A document of the test header and the given task lines (and top-level keys). */
export const documentOf = (tasks: string, head = ""): WorkflowDocument => readOrFail(workflow(tasks, head))

/**
 * One run driven input by input through the interpreter, as the host would: every applied input's state patch is
 * recorded and the state rebuilt from the patches is checked to equal the live one, key order included; the ids of
 * the events the run took or emitted are kept beside the state, and a repeat is stale (ADR 0420).
 */
export class TestRun {
  state: RunStateData | undefined = undefined
  rebuilt: RunStateData | undefined = undefined
  readonly patches: Array<StatePatch> = []
  readonly applied: Array<Applied> = []
  /** The ids of the events the run took or emitted, as the host keeps them (`workflow_seen`). */
  readonly seen = new Set<string>()
  now = startAt

  constructor(
    readonly runtime: EngineRuntime,
    readonly document: WorkflowDocument
  ) {}

  /** Applies an input; `undefined` when stale. */
  async input(input: WorkflowInput): Promise<Applied | undefined> {
    if (
      input.kind === "event_received" &&
      (this.seen.has(input.event.id) || (input.offered === true && this.seen.has(input.key)))
    )
      return undefined
    const applied = await this.runtime.runPromise(apply(this.document, this.state, input))
    if (applied === undefined) return undefined
    for (const id of applied.seen) this.seen.add(id)
    // The patch the interpreter gives is the one recorded: it must rebuild the live state, and say what a diff says.
    expect(applyStatePatch(this.state, applied.patch)).toEqual(
      applyStatePatch(this.state, diffState(this.state, applied.state))
    )
    this.patches.push(JSON.parse(JSON.stringify(applied.patch)))
    this.rebuilt = applyStatePatch(this.rebuilt, this.patches.at(-1)!)
    expect(JSON.stringify(this.rebuilt)).toBe(JSON.stringify(applied.state))
    this.state = applied.state
    this.applied.push(applied)
    return applied
  }

  /** Starts the run with `input`. */
  start(input: unknown = {}, options: { limits?: Partial<RunLimits>; seed?: number } = {}) {
    return this.input({
      kind: "started",
      key: runId,
      at: this.now,
      input,
      seed: options.seed ?? 7,
      limits: limitsOf(options.limits),
      runtimeVersion: "0.1.0"
    })
  }

  /** Fires the soonest armed timer at its due time (or `at`). */
  fireNext(at?: number) {
    const timer = armedTimers(this.state!)[0]
    if (timer === undefined) throw new Error("no timer armed")
    this.now = Math.max(this.now, at ?? timer.dueAt)
    return this.input({ kind: "timer_fired", key: timer.id, at: this.now })
  }

  /** Fires the timer `id` now. */
  fire(id: string) {
    return this.input({ kind: "timer_fired", key: id, at: this.now })
  }

  /** Answers the open call (the only one, or the one at `index`). */
  answer(answer: CallAnswer, index = 0) {
    const call = openCalls(this.state!)[index]
    if (call === undefined) throw new Error("no call open")
    return this.input({ kind: "call_answered", key: call.key, at: this.now, answer })
  }

  /** Sends an event to the run. */
  send(event: Partial<RunEvent> & { readonly type: string }, offered = false) {
    const full: RunEvent = {
      id: `e-${this.applied.length}`,
      source: "/callers/test",
      time: "2026-03-01T00:00:00Z",
      ...event
    }
    return this.input({
      kind: "event_received",
      key: full.id,
      at: this.now,
      event: full,
      ...(offered ? { offered } : {})
    })
  }

  /** Offers a playbook event to the open listens `to` (any when absent), keyed by its record id `key`. */
  offer(event: RunEvent, key: string, to?: ReadonlyArray<string>) {
    return this.input({
      kind: "event_received",
      key,
      at: this.now,
      event,
      offered: true,
      ...(to === undefined ? {} : { to })
    })
  }

  /** Cancels the run. */
  cancel(cancelKind: CancelKind = "requested", reason?: string) {
    return this.input({
      kind: "cancel_requested",
      key: runId,
      at: this.now,
      cancelKind,
      ...(reason === undefined ? {} : { reason })
    })
  }

  /** How the run ended, if it did. */
  get ending(): RunEnding | undefined {
    return this.state === undefined ? undefined : runEnding(this.state)
  }

  /** Every output of every input so far. */
  get outputs(): ReadonlyArray<EngineOutput> {
    return this.applied.flatMap((applied) => applied.outputs)
  }

  /** The step entries of the last input. */
  get steps(): ReadonlyArray<StepEntry> {
    return this.applied.at(-1)?.steps ?? []
  }

  /** The outputs of the last input. */
  get last(): ReadonlyArray<EngineOutput> {
    return this.applied.at(-1)?.outputs ?? []
  }
}

/** A run of `tasks` (task lines under `do:`) on a runtime. */
export const runOf = (runtime: EngineRuntime, tasks: string, head = ""): TestRun =>
  new TestRun(runtime, documentOf(tasks, head))

/** Entries as `reference outcome` lines, for compact assertions. */
export const outcomesOf = (steps: ReadonlyArray<StepEntry>): ReadonlyArray<string> =>
  steps.map((step) => `${step.reference} ${step.outcome}`)
