import type { Duration } from "./Duration.js"
import type { Expression } from "./Expression.js"
import type { Template } from "./Template.js"

/** Where the flow goes after a task (workflow-format.md §4); a jump names a task of the same list, by position. */
export type Flow =
  | { readonly _tag: "Continue" }
  | { readonly _tag: "Exit" }
  | { readonly _tag: "End" }
  | { readonly _tag: "Jump"; readonly task: string; readonly index: number }

/** A time limit: written inline, or the named entry of `use.timeouts` it was resolved from at save. */
export interface Timeout {
  readonly name?: string
  readonly after: Duration
}

/**
 * The fields every task accepts (workflow-format.md §3.1), with the task's name and reference. `input.from`,
 * `output.as` and `export.as` are templates: their string form is one `Expression`.
 */
export interface TaskCommon {
  readonly name: string
  /** The task's JSON pointer in the document, e.g. `/do/0/check/try/0/assess`. */
  readonly reference: string
  readonly if?: Expression
  readonly inputFrom?: Template
  readonly outputAs?: Template
  readonly exportAs?: Template
  readonly timeout?: Timeout
  readonly then: Flow
}
