import type { DefinitionType } from "../../definitions/DefinitionType.js"
import type { Duration } from "./Duration.js"
import type { EventFilter } from "./EventFilter.js"
import type { Expression } from "./Expression.js"
import type { RetryPolicy } from "./RetryPolicy.js"
import type { Flow, TaskCommon } from "./TaskCommon.js"
import type { Template } from "./Template.js"
import type { ErrorDefinition, ErrorFilter } from "./WorkflowError.js"

/** A task list: run in order, names unique within it (decision W13). */
export type TaskList = ReadonlyArray<Task>

/** One case of a `switch`: chosen when its `when` holds; a case without `when` is the default. */
export interface SwitchCase {
  readonly name: string
  readonly when?: Expression
  readonly then: Flow
}

/** The `catch` of a `try` (workflow-format.md §9.2); `as` is the caught error's variable name, without `$`. */
export interface Catch {
  readonly errors?: ErrorFilter
  readonly as: string
  readonly when?: Expression
  readonly exceptWhen?: Expression
  readonly retry?: RetryPolicy
  readonly do?: TaskList
}

/** What a task does, by its kind (workflow-format.md §3.2). */
export type TaskBody =
  | {
      readonly kind: "call"
      /** A literal type is a known definition type and a literal name well formed (decision W12). */
      readonly type: DefinitionType | Expression
      readonly name: string | Expression
      readonly input: Template
    }
  | { readonly kind: "set"; readonly set: Template }
  | { readonly kind: "do"; readonly do: TaskList }
  | { readonly kind: "switch"; readonly cases: ReadonlyArray<SwitchCase> }
  | {
      readonly kind: "for"
      /** The item's and the position's variable names, without `$` (default `item`, `index`). */
      readonly each: string
      readonly at: string
      readonly in: Expression
      readonly while?: Expression
      readonly do: TaskList
    }
  | { readonly kind: "fork"; readonly branches: TaskList; readonly compete: boolean }
  | { readonly kind: "try"; readonly try: TaskList; readonly catch: Catch }
  | { readonly kind: "raise"; readonly error: ErrorDefinition }
  | { readonly kind: "wait"; readonly duration: Duration }
  | {
      readonly kind: "listen"
      readonly to: "one" | "any" | "all"
      readonly filters: ReadonlyArray<EventFilter>
      /** What each taken event outputs: its data, or the whole event (decision W9). */
      readonly read: "data" | "envelope" | "raw"
    }
  | {
      readonly kind: "emit"
      /** The event's attributes (`emit.event.with`): `type` and `source` given, `id` never. */
      readonly event: Template
    }

/** The kinds a task may have, in the order the spec lists them. */
export type TaskKind = TaskBody["kind"]

/** One task of a list: its common fields and what it does. */
export interface Task extends TaskCommon {
  readonly body: TaskBody
}
