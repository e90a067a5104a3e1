import type { Task, TaskList } from "../../formats/workflow/Task.js"
import { allTasks, type WorkflowDocument } from "../../formats/workflow/WorkflowDocument.js"
import type { ListPart } from "./RunStateShape.js"

/** The tasks of a document by reference. */
export type TaskIndex = ReadonlyMap<string, Task>

const indexes = new WeakMap<WorkflowDocument, TaskIndex>()

/** The tasks of a document by reference, computed once per document. */
export const taskIndex = (document: WorkflowDocument): TaskIndex => {
  const known = indexes.get(document)
  if (known !== undefined) return known
  const index = new Map(allTasks(document.do).map((task) => [task.reference, task] as const))
  indexes.set(document, index)
  return index
}

/** The task at a reference; the state only names tasks of its own document. */
export const taskAt = (index: TaskIndex, reference: string): Task => {
  const task = index.get(reference)
  if (task === undefined) throw new Error(`The run's state names ${reference}, which its document does not hold`)
  return task
}

/** The list a list frame runs: the root list (owner `""`), a `do`/`for` body, a `try` list or a `catch.do`. */
export const listAt = (document: WorkflowDocument, index: TaskIndex, owner: string, part: ListPart): TaskList => {
  if (owner === "") return document.do
  const body = taskAt(index, owner).body
  if (part === "try" && body.kind === "try") return body.try
  if (part === "catch" && body.kind === "try") return body.catch.do ?? []
  if (body.kind === "do" || body.kind === "for") return body.do
  throw new Error(`The run's state names list ${part} of ${owner}, which its document does not hold`)
}
