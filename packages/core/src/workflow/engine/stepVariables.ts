import type { Variables } from "./evaluation.js"
import type { Step } from "./frames.js"
import { taskVariables } from "./variables.js"

/** The variables of a task's body (§5.2): `$data` and `$input` are its effective input; `extra` adds names. */
export const bodyVariables = (step: Step, extra: Variables = {}): Variables => ({
  ...taskVariables(step.machine, step.task, step.frame, step.thread, step.scope, {
    data: step.frame.input,
    input: step.frame.input
  }),
  ...extra
})

/** Records the task `waiting` for a timer, an event or a call: the run has waited, so its task count restarts. */
export const recordWaiting = (
  step: Step,
  waitsFor: "timer" | "event" | "call",
  details: { readonly child?: string; readonly times?: number } = {}
): void => {
  step.machine.state.counters.tasksWithoutWait = 0
  step.entry = step.machine.steps.record(step.frame, step.task.name, "waiting", step.entry, {
    waits_for: waitsFor,
    ...details
  })
}
