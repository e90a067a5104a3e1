/** How a step stands after an input moved it (workflow-format.md §16.2). */
export type StepOutcome = "started" | "skipped" | "waiting" | "completed" | "raised" | "timed_out" | "cancelled"

/** The error a failed step shows: its type and title. */
export interface StepError {
  readonly type: string
  readonly title?: string
}

/**
 * One task execution an input moved (workflow-format.md §16.2). A later outcome in the same input replaces an
 * earlier one in place. `caused_by` is `"input"` or the index (0-based, in this input's list) of the entry that
 * moved this one; the history shows it as `<input id>_<index + 1>`.
 */
export interface StepEntry {
  readonly reference: string
  /** The task's run counter: the 3rd execution of a task has run 3. */
  readonly run: number
  readonly outcome: StepOutcome
  /** The task's name, cut at 256 bytes. */
  readonly name: string
  readonly times: number
  readonly caused_by: "input" | number
  readonly error?: StepError
  readonly waits_for?: "timer" | "event" | "call" | "admission"
  /** A call's callee run id, on `waiting`. */
  readonly child?: string
}
