import { Effect } from "effect"
import type { TaskBody } from "../../formats/workflow/Task.js"
import { evaluateCondition, evaluateDuration, evaluateTemplate } from "./evaluation.js"
import type { Raised } from "./faults.js"
import type { BodyOutcome, Signal, Step } from "./frames.js"
import { armTimer } from "./Machine.js"
import { bodyVariables, recordWaiting } from "./stepVariables.js"

type Body<K extends TaskBody["kind"]> = Extract<TaskBody, { kind: K }>

/** `set`: the evaluated template (workflow-format.md §3.2). */
export const startSet = (step: Step, body: Body<"set">): Effect.Effect<BodyOutcome, Raised> =>
  Effect.map(evaluateTemplate(step.machine, body.set, bodyVariables(step), step.task.reference), (value) => ({
    tag: "done",
    value
  }))

/** `switch`: the first case whose `when` holds, else the default case, sets the flow; the input is handed on. */
export const startSwitch = (step: Step, body: Body<"switch">): Effect.Effect<BodyOutcome, Raised> =>
  Effect.gen(function* () {
    const input = step.frame.input
    for (const option of body.cases) {
      if (option.when === undefined) continue
      if (yield* evaluateCondition(step.machine, option.when, bodyVariables(step), step.task.reference)) {
        return { tag: "done", value: input, flow: option.then }
      }
    }
    const fallback = body.cases.find((option) => option.when === undefined)
    return fallback === undefined ? { tag: "done", value: input } : { tag: "done", value: input, flow: fallback.then }
  })

/** `wait`: arms a timer for the duration; hands its input on when it fires (§3.2, §11). */
export const startWait = (step: Step, body: Body<"wait">): Effect.Effect<BodyOutcome, Raised> =>
  Effect.map(
    evaluateDuration(step.machine, body.duration, bodyVariables(step), step.task.reference),
    (milliseconds) => {
      const timer = armTimer(step.machine, step.machine.now + milliseconds, { kind: "wait", frame: step.frame.id })
      step.frame.body = { kind: "wait", timer }
      recordWaiting(step, "timer")
      return { tag: "waiting" }
    }
  )

/** A fired `wait` timer: the input is handed on. */
export const resumeWait = (step: Step, signal: Signal): BodyOutcome => {
  if (signal.kind !== "timer") return { tag: "waiting" }
  delete step.machine.state.timers[signal.id]
  return { tag: "done", value: step.frame.input }
}
