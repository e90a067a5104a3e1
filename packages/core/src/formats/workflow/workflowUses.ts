import type { DefinitionUse } from "../../definitions/DefinitionUse.js"
import { allTasks, type WorkflowDocument } from "./WorkflowDocument.js"

/**
 * The definitions a workflow's run_definition steps name by a literal type and name, each with those steps: its
 * number, its place among all the workflow's tasks in document order (from 1), and its name (ADR 0015). A step
 * whose type or name is an expression names no definition before it runs, so it is not counted as a use.
 */
export const workflowUses = (document: WorkflowDocument): ReadonlyArray<DefinitionUse> => {
  const uses = new Map<
    string,
    { type: DefinitionUse["type"]; name: string; steps: Array<{ number: number; name: string }> }
  >()
  allTasks(document.do).forEach((task, index) => {
    const body = task.body
    if (body.kind !== "call" || typeof body.type !== "string" || typeof body.name !== "string") return
    const key = `${body.type}/${body.name}`
    const use = uses.get(key) ?? { type: body.type, name: body.name, steps: [] }
    use.steps.push({ number: index + 1, name: task.name })
    uses.set(key, use)
  })
  return [...uses.values()].map((use) => ({ ...use, relation: "calls" }))
}
