import type { RunEnding } from "./EngineOutput.js"
import { problemBase } from "./faults.js"
import type { Fault } from "./RunStateShape.js"

/** A rejection's detail (workflow-format.md §14): title (or type), `: detail` if any, then ` (at instance)`. */
export const rejectionDetail = (fault: Fault): string => {
  const { error } = fault
  return `${error.title ?? error.type}${error.detail === undefined ? "" : `: ${error.detail}`} (at ${error.instance})`
}

const reasonOf = (fault: Fault): { reason: string; kind?: string; because?: string } => {
  const { error } = fault
  const because = error.because === undefined ? {} : { because: error.because }
  if (error.type === `${problemBase}tools_unfinished`)
    return { reason: "unavailable", kind: "tools_unfinished", ...because }
  if (error.type === `${problemBase}tools_called`) return { reason: "conflict", kind: "tools_called", ...because }
  if (error.type === `${problemBase}unanswered`) {
    return { reason: "unanswered", ...(error.kind === undefined ? {} : { kind: error.kind }) }
  }
  const clientError = error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429
  return { reason: clientError ? "invalid_input" : "unavailable" }
}

/**
 * How an uncaught error ends the run (workflow-format.md §14): rejected `invalid_input` for a 4xx other than 408
 * and 429, `unavailable` otherwise, the tool-safety and unanswered problems with their own reason and kind; the
 * detail in the spec's words and the `cause` naming the step and, for a call, the callee's ending.
 */
export const rejectedBy = (fault: Fault): RunEnding => {
  const { instance } = fault.error
  const atStep = instance.startsWith("/do/")
  return {
    status: "rejected",
    ...reasonOf(fault),
    detail: rejectionDetail(fault),
    ...(atStep ? { cause: { step: instance.slice(1), ...(fault.call ?? {}) } } : {})
  }
}
