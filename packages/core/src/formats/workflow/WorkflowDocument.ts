import type { OutputShape } from "../document/outputShapes.js"
import type { Task, TaskList } from "./Task.js"
import type { Timeout } from "./TaskCommon.js"
import type { Template } from "./Template.js"
import type { Trigger } from "./Trigger.js"

/**
 * A workflow document as read and checked at save (workflow-format.md §1.1): the parts a definition shows, the
 * run's transforms and limit, its triggers and its root task list. Named errors, retries and timeouts are resolved
 * into the tasks that use them; `document.tags` and `document.metadata` are accepted and left out (decision W14).
 */
export interface WorkflowDocument {
  readonly dsl: string
  readonly namespace: string
  readonly name: string
  /** The author's label, e.g. `2.1.0`; not the definition's version counter. */
  readonly version: string
  readonly title?: string
  readonly summary?: string
  /** `summary`, else `title`: the definition's description. */
  readonly description?: string
  readonly inputSchema?: unknown
  /** The output schema as written, or the schema of the named `output.shape` (decision W3). */
  readonly outputSchema?: unknown
  readonly shape?: OutputShape
  /** Applied to the run's raw input before the first task. */
  readonly inputFrom?: Template
  /** Applied to the final output to form the run's output. */
  readonly outputAs?: Template
  readonly timeout?: Timeout
  /** In document order: `on`, `cron`, `every`. */
  readonly triggers: ReadonlyArray<Trigger>
  readonly do: TaskList
}

/** Every task of a list and of the lists inside it, depth first in document order. */
export const allTasks = (list: TaskList): ReadonlyArray<Task> =>
  list.flatMap((task) => {
    const body = task.body
    const inner: TaskList =
      body.kind === "do" || body.kind === "for"
        ? body.do
        : body.kind === "fork"
          ? body.branches
          : body.kind === "try"
            ? [...body.try, ...(body.catch.do ?? [])]
            : []
    return [task, ...allTasks(inner)]
  })
