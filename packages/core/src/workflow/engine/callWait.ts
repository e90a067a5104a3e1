import type { TaskBody } from "../../formats/workflow/Task.js"
import type { EarlierRunLimits, RunLimits } from "./WorkflowInput.js"

/** The function types that end within their call, so a call written literally to one waits `withinCallWait`. */
const endingWithinCall: ReadonlySet<string> = new Set(["computation", "lookup", "prediction"])

/**
 * How long a call task waits for its callee (workflow-format.md §7.2, ADRs 0272, 0265), taken as the call starts
 * from the run's limits: `withinCallWait` for a call whose type is written literally as a computation, lookup or
 * prediction, `defaultCallWait` for any other. A run an earlier engine started kept a bound per call task instead,
 * which is still what its calls wait.
 */
export const callWait = (
  limits: RunLimits | EarlierRunLimits,
  reference: string,
  body: Extract<TaskBody, { kind: "call" }>
): number => {
  if ("callWaits" in limits) return limits.callWaits[reference] ?? limits.defaultCallWait
  return typeof body.type === "string" && endingWithinCall.has(body.type)
    ? limits.withinCallWait
    : limits.defaultCallWait
}
