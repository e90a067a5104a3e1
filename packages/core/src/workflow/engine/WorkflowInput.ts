/**
 * What a called run ended with, as a waiting `call` step takes it (workflow-format.md §7.4): its output, its
 * rejection, a failure inside the runtime, or that it could not be reached.
 */
export type CallAnswer =
  | { readonly status: "succeeded"; readonly output: unknown }
  | {
      readonly status: "rejected"
      readonly reason: string
      readonly kind?: string
      readonly because?: string
      readonly detail?: string
    }
  | { readonly status: "failed"; readonly detail?: string }
  | { readonly status: "unreachable"; readonly detail?: string }

/** How a run was cancelled (workflow-format.md §14): by a caller, by its caller's deadline, by its own
 * maximum duration, or because the run waiting for it ended first. */
export type CancelKind = "requested" | "deadline" | "overrun" | "parent_ended"

/** An event as a run takes it (CloudEvents attributes; `data` and extensions as sent). */
export interface RunEvent {
  readonly id: string
  readonly type: string
  readonly source: string
  readonly time: string
  readonly subject?: string
  readonly data?: unknown
  readonly [extension: string]: unknown
}

/**
 * What the run is limited by, resolved when it starts and kept in its state (workflow-format.md §7.2, §15): the
 * figures a call's wait bound is taken from as the call starts (`callWait`, ADR 0265), not one bound per call task.
 */
export interface RunLimits {
  /** When the run is cancelled with kind `overrun`, in ms since the epoch. */
  readonly endsBy: number
  /** The wait bound in ms of a call whose type is written literally as a function that ends within its call. */
  readonly withinCallWait: number
  /** The wait bound in ms of any other call. */
  readonly defaultCallWait: number
  /** Calls above this run (0 for a root run); a call that would sit deeper than 8 raises `ERR/runtime` 409. */
  readonly callDepth: number
}

/**
 * The limits as runs an earlier engine started keep them (ADR 0265): the wait bound of each call task whose type
 * is written literally, by task reference, instead of `withinCallWait`.
 */
export interface EarlierRunLimits extends Omit<RunLimits, "withinCallWait"> {
  readonly callWaits: Readonly<Record<string, number>>
}

/**
 * One input a workflow run takes (architecture.md, The workflow engine; workflow-format.md §16.1). Each carries its
 * key (what makes a repeat stale) and the time it happened; the interpreter's clock is only this time.
 */
export type WorkflowInput =
  | {
      readonly kind: "started"
      /** The run id. */
      readonly key: string
      readonly at: number
      /** The run's raw input (`$workflow.input`). */
      readonly input: unknown
      /** Seeds the run's random draws (retry jitter). */
      readonly seed: number
      readonly limits: RunLimits
      /** `$runtime.version`: the runtime's version (RuntimeConfig `serverVersion`); default `0.1.0`. */
      readonly runtimeVersion?: string
    }
  | { readonly kind: "call_answered"; readonly key: string; readonly at: number; readonly answer: CallAnswer }
  | { readonly kind: "timer_fired"; readonly key: string; readonly at: number }
  | {
      readonly kind: "event_received"
      /** The event's id. */
      readonly key: string
      readonly at: number
      readonly event: RunEvent
      /**
       * A playbook event the host offers an open listen (rather than an event sent to the run): if no open listen
       * takes it, the input is stale instead of waiting in the inbox (workflow-format.md §8.1).
       */
      readonly offered?: boolean
      /**
       * For an offered event, the keys of the open listens it is offered to: those that were open when the event was
       * recorded (workflow-format.md §8.1, ADR 0295); absent, any open listen may take it.
       */
      readonly to?: ReadonlyArray<string>
    }
  | {
      readonly kind: "cancel_requested"
      /** The run id. */
      readonly key: string
      readonly at: number
      readonly cancelKind: CancelKind
      /** The canceller's words: the rejection's detail. */
      readonly reason?: string
    }

/** The kinds of input, as `workflow_input_applied` names them. */
export type WorkflowInputKind = WorkflowInput["kind"]
