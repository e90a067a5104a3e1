import type { ListenFilter, RunEnding } from "./EngineOutput.js"
import type { EarlierRunLimits, RunEvent, RunLimits } from "./WorkflowInput.js"

/** A workflow error as expressions see it (workflow-format.md §9.1). */
export interface ErrorObject {
  readonly type: string
  readonly status: number
  readonly instance: string
  readonly title?: string
  readonly detail?: string
  readonly kind?: string
  readonly because?: string
}

/** What a callee's ending adds to an error, for the run's rejection `cause` (§14). */
export interface CallCause {
  readonly run_id: string
  readonly status: "rejected" | "failed" | "unreachable" | "timed_out"
  readonly reason?: string
  readonly kind?: string
  readonly because?: string
}

/** An error on its way up the frames: the error object and, when a call raised it, the callee's ending. */
export interface Fault {
  readonly error: ErrorObject
  readonly call?: CallCause
}

/** What an armed timer is for; frames are named by their id. */
export type TimerPurpose =
  | { readonly kind: "timeout" | "wait" | "retry" | "attempt" | "yield"; readonly frame: number }
  | { readonly kind: "deadline"; readonly frame: number; readonly call: string }
  | { readonly kind: "run_timeout" | "overrun" }

/** An armed timer. */
export interface TimerState {
  readonly dueAt: number
  readonly purpose: TimerPurpose
}

/** An open call: the callee, the frame waiting for it and its deadline timer. */
export interface CallState {
  readonly runId: string
  readonly frame: number
  readonly reference: string
  readonly type: string
  readonly name: string
  readonly deadlineAt: number
  readonly timer: string
}

/** An open listen: the frame waiting and the literal filters registered for playbook events. */
export interface ListenState {
  readonly frame: number
  readonly reference: string
  readonly filters: ReadonlyArray<ListenFilter>
}

/** Which list of a task a list frame runs: the root list has owner `""`. */
export type ListPart = "do" | "try" | "catch"

/** A task list under way: the position, the value handed along, the running task, the variables it adds. */
export interface ListFrame {
  readonly id: number
  readonly owner: string
  readonly part: ListPart
  index: number
  value: unknown
  child?: TaskFrame
  yieldTimer?: string
  /** Variables the list adds (`$item`/`$index` of a `for` iteration, the caught error of `catch.do`). */
  readonly vars?: Record<string, unknown>
}

/** A branch of a fork: its own `$context` (decision W8) and how it stands. */
export interface BranchState {
  context: unknown
  status: "running" | "done" | "ended" | "raised" | "cancelled"
  frame?: TaskFrame
  value?: unknown
  fault?: Fault
}

/** What a task under way keeps, by kind. */
export type BodyState =
  | { readonly kind: "call"; readonly key: string }
  | { readonly kind: "wait"; readonly timer: string }
  | {
      readonly kind: "listen"
      readonly key: string
      /** One slot per filter for `all`, one slot otherwise. */
      readonly taken: Array<RunEvent | null>
      registered: boolean
      /** How many times it recorded `waiting` (the entries' `times`). */
      waits: number
    }
  | { readonly kind: "do"; readonly list: ListFrame }
  | {
      readonly kind: "for"
      readonly items: ReadonlyArray<unknown>
      position: number
      value: unknown
      list?: ListFrame
    }
  | {
      readonly kind: "fork"
      readonly branches: Array<BranchState>
      /** The branch that failed first, in time. */
      firstFailed?: number
    }
  | {
      readonly kind: "try"
      /** Retries made so far. */
      attempt: number
      readonly firstAt: number
      list?: ListFrame
      attemptTimer?: string
      retryTimer?: string
      recovering?: ListFrame
    }

/** A task under way (a step): its reference and run counter, its raw and effective input, its timeout timer. */
export interface TaskFrame {
  readonly id: number
  readonly reference: string
  readonly run: number
  readonly raw: unknown
  input: unknown
  readonly at: number
  timer?: string
  body?: BodyState
}

/** The run's counters for the limits of §15 it enforces. */
export interface RunCounters {
  inputs: number
  tasksWithoutWait: number
  emitted: number
  emittedBytes: number
  received: number
  receivedBytes: number
  /** The bytes of history the run recorded before this input, as JSON (patches and step entries; ADR 0297). */
  recorded?: number
}

/**
 * A workflow run's state between inputs (ADR 0251): plain JSON the interpreter alone shapes. Timers, calls and
 * listens are indexed by their keys, the task tree hangs from `root`, and `$context` of the main thread is
 * `context` (fork branches keep their own).
 */
export interface RunState {
  readonly version: 1
  readonly runId: string
  readonly startedAt: number
  readonly input: unknown
  readonly seed: number
  draws: number
  /** As the `started` input gave them, or, in a run an earlier engine started, with a bound per call task. */
  readonly limits: RunLimits | EarlierRunLimits
  readonly runtimeVersion: string
  lastAt: number
  ended?: RunEnding
  context: unknown
  nextTimer: number
  nextFrame: number
  runs: Record<string, number>
  counters: RunCounters
  timers: Record<string, TimerState>
  calls: Record<string, CallState>
  listens: Record<string, ListenState>
  inbox: Array<RunEvent>
  /**
   * Ids of events received or emitted, a repeat of which is stale: kept in the state by runs that started before ADR
   * 0420, and never added to since (the host keeps them in the `workflow_seen` view).
   */
  seen?: Array<string>
  root?: ListFrame
}

/** Where `$context` lives for a part of the tree: the run (main thread) or a fork branch. */
export interface Thread {
  context: unknown
}
