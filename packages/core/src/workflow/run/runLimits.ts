import { allTasks, type WorkflowDocument } from "../../formats/workflow/WorkflowDocument.js"
import type { RunLimits } from "../engine/WorkflowInput.js"

/** A minute: what a call's wait bound adds to the callee's longest run (workflow-format.md §7.2). */
const minute = 60_000

/** The longest run of a function that finishes within its call: computation, lookup, prediction (10 s). */
const withinCall = 10_000

/**
 * The limits of a run resolved when it starts (workflow-format.md §7.2, ADR 0272): when it overruns, and the wait
 * bound of each call task whose type is written literally. A workflow callee may run as long as any run; a
 * function that finishes within its call 10 s; one that may finish later (interaction, reasoning with tools,
 * generation) is bound by the longest run, since its own bound (an interaction's expiry) ends it first.
 */
export const runLimits = (
  document: WorkflowDocument,
  startedAt: number,
  maxRunMilliseconds: number,
  callDepth: number
): RunLimits => {
  const endsBy = startedAt + maxRunMilliseconds
  const callWaits: Record<string, number> = {}
  for (const task of allTasks(document.do)) {
    const body = task.body
    if (body.kind !== "call" || typeof body.type !== "string") continue
    callWaits[task.reference] =
      body.type === "computation" || body.type === "lookup" || body.type === "prediction"
        ? withinCall + minute
        : maxRunMilliseconds + minute
  }
  return { endsBy, callWaits, defaultCallWait: maxRunMilliseconds + minute, callDepth }
}
