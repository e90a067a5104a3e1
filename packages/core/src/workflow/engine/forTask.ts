import { Effect } from "effect"
import type { TaskBody } from "../../formats/workflow/Task.js"
import { driveList } from "./drive.js"
import { evaluate, evaluateCondition } from "./evaluation.js"
import { type Raised, raise, runtimeFault, type Stopped } from "./faults.js"
import { type BodyOutcome, type ListOutcome, newList, type Signal, type Step } from "./frames.js"
import { listOutcome } from "./listOutcome.js"
import type { BodyState } from "./RunStateShape.js"
import type { Cause } from "./StepRecorder.js"
import { bodyVariables } from "./stepVariables.js"

type ForBody = Extract<TaskBody, { kind: "for" }>
type ForState = Extract<BodyState, { kind: "for" }>

/** What one iteration's end means for the loop: go on (`undefined`), or the loop's outcome. */
const afterIteration = (state: ForState, outcome: ListOutcome): BodyOutcome | undefined => {
  if (outcome.tag === "waiting") return outcome
  state.list = undefined
  if (outcome.tag !== "done") return listOutcome(outcome)
  state.value = outcome.value
  state.position += 1
  return outcome.exited ? { tag: "done", value: state.value, cause: outcome.cause } : undefined
}

/** Runs iterations from the current position: `while` checked before each, the body run with the item's names. */
const iterate = (
  step: Step,
  body: ForBody,
  state: ForState,
  cause: Cause
): Effect.Effect<BodyOutcome, Raised | Stopped> =>
  Effect.gen(function* () {
    let next = cause
    while (state.position < state.items.length) {
      const vars = { [`$${body.each}`]: state.items[state.position], [`$${body.at}`]: state.position }
      if (body.while !== undefined) {
        const variables = { ...bodyVariables(step), $data: state.value, ...vars }
        if (!(yield* evaluateCondition(step.machine, body.while, variables, step.task.reference))) break
      }
      const list = newList(step.machine, step.task.reference, "do", state.value, vars)
      state.list = list
      const outcome = yield* driveList(step.machine, list, step.thread, step.scope, undefined, next)
      const moved = afterIteration(state, outcome)
      if (moved !== undefined) return moved
      if (outcome.tag === "done") next = outcome.cause
    }
    return { tag: "done", value: state.value, cause: next }
  })

/**
 * `for` (workflow-format.md §10.1): `for.in` evaluated once on the input (a list, else `ERR/validation` 400); each
 * iteration takes the previous one's output; an empty list hands the input on (decision W8); `exit` stops the loop.
 */
export const startFor = (step: Step, body: ForBody): Effect.Effect<BodyOutcome, Raised | Stopped> =>
  Effect.gen(function* () {
    const items = yield* evaluate(step.machine, body.in, bodyVariables(step), step.task.reference)
    if (!Array.isArray(items)) {
      return yield* raise(
        runtimeFault("validation", 400, step.task.reference, "for.in is not a list", `${body.in.pointer} gave no list`)
      )
    }
    const state: ForState = { kind: "for", items, position: 0, value: step.frame.input }
    step.frame.body = state
    return yield* iterate(step, body, state, step.entry)
  })

/** A loop under way moved: the iteration's list takes the signal, then the loop goes on. */
export const resumeFor = (
  step: Step,
  body: ForBody,
  state: ForState,
  signal: Signal
): Effect.Effect<BodyOutcome, Raised | Stopped> =>
  Effect.gen(function* () {
    if (state.list === undefined) return { tag: "waiting" } as const
    const outcome = yield* driveList(step.machine, state.list, step.thread, step.scope, signal, "input")
    const moved = afterIteration(state, outcome)
    if (moved !== undefined) return moved
    return yield* iterate(step, body, state, outcome.tag === "done" ? outcome.cause : "input")
  })
