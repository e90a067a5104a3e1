import type { RunLimits } from "../engine/WorkflowInput.js"

/** A minute: what a call's wait bound adds to the callee's longest run (workflow-format.md §7.2). */
const minute = 60_000

/** The longest run of a function that finishes within its call: computation, lookup, prediction (10 s). */
const withinCall = 10_000

/**
 * The limits of a run resolved when it starts (workflow-format.md §7.2, ADRs 0272, 0265): when it overruns, and
 * the wait bounds its calls take as they start (`callWait`). A workflow callee may run as long as any run; a
 * function that finishes within its call 10 s; one that may finish later (interaction, reasoning with tools,
 * generation) is bound by the longest run, since its own bound (an interaction's expiry) ends it first.
 */
export const runLimits = (startedAt: number, maxRunMilliseconds: number, callDepth: number): RunLimits => ({
  endsBy: startedAt + maxRunMilliseconds,
  withinCallWait: withinCall + minute,
  defaultCallWait: maxRunMilliseconds + minute,
  callDepth
})
