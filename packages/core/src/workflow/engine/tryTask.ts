import { Effect } from "effect"
import type { RetryPolicy } from "../../formats/workflow/RetryPolicy.js"
import type { Catch, TaskBody } from "../../formats/workflow/Task.js"
import type { ErrorFilter } from "../../formats/workflow/WorkflowError.js"
import { cancelList } from "./cancelFrames.js"
import { driveList } from "./drive.js"
import { evaluateCondition, evaluateDuration, type Variables } from "./evaluation.js"
import { problemBase, type Raised, type Stopped, timeoutFault } from "./faults.js"
import { type BodyOutcome, type ListOutcome, newList, type Signal, type Step } from "./frames.js"
import { listOutcome } from "./listOutcome.js"
import { armTimer, disarmTimer } from "./Machine.js"
import type { BodyState, ErrorObject, Fault } from "./RunStateShape.js"
import type { Cause } from "./StepRecorder.js"
import { seededDraw } from "./seededDraw.js"
import { bodyVariables, recordWaiting } from "./stepVariables.js"

type TryBody = Extract<TaskBody, { kind: "try" }>
type TryState = Extract<BodyState, { kind: "try" }>

/** Problems only a catch naming their type catches (decision W6). */
const namedOnly = new Set([`${problemBase}cancelled`, `${problemBase}unanswered`])

/**
 * Whether an error passes `catch.errors.with` (workflow-format.md §9.2, decisions W6, W7): each key equal to the
 * error's field (`details` to `detail`); no filter passes any error but cancellations and unanswered requests.
 */
export const passesFilter = (filter: ErrorFilter | undefined, error: ErrorObject): boolean => {
  if (namedOnly.has(error.type) && filter?.type !== error.type) return false
  if (filter === undefined) return true
  return (
    (filter.type === undefined || filter.type === error.type) &&
    (filter.status === undefined || filter.status === error.status) &&
    (filter.instance === undefined || filter.instance === error.instance) &&
    (filter.title === undefined || filter.title === error.title) &&
    (filter.details === undefined || filter.details === error.detail) &&
    (filter.kind === undefined || filter.kind === error.kind)
  )
}

/** Whether a condition list passes: `when` holds and `exceptWhen` does not. */
const conditionsPass = (step: Step, rule: Pick<Catch, "when" | "exceptWhen">, variables: Variables) =>
  Effect.gen(function* () {
    const { machine, task } = step
    if (rule.when !== undefined && !(yield* evaluateCondition(machine, rule.when, variables, task.reference))) {
      return false
    }
    return !(
      rule.exceptWhen !== undefined && (yield* evaluateCondition(machine, rule.exceptWhen, variables, task.reference))
    )
  })

/**
 * The delay before retry `n` (§9.3), or `undefined` when no retry is left: `n` past the count, the policy's
 * duration spent, or its conditions refusing. Jitter draws from the run's seeded generator.
 */
const retryDelay = (step: Step, policy: RetryPolicy, state: TryState, variables: Variables) =>
  Effect.gen(function* () {
    const { machine, task } = step
    const n = state.attempt
    const { attemptCount, duration } = policy.limit
    if (attemptCount !== undefined && n >= attemptCount) return undefined
    if (duration !== undefined) {
      const limit = yield* evaluateDuration(machine, duration, variables, task.reference)
      if (machine.now - state.firstAt >= limit) return undefined
    }
    if (!(yield* conditionsPass(step, policy, variables))) return undefined
    const base = yield* evaluateDuration(machine, policy.delay, variables, task.reference)
    const grown = policy.backoff === "linear" ? base * (n + 1) : policy.backoff === "exponential" ? base * 2 ** n : base
    if (policy.jitter === undefined) return grown
    const from = yield* evaluateDuration(machine, policy.jitter.from, variables, task.reference)
    const to = yield* evaluateDuration(machine, policy.jitter.to, variables, task.reference)
    const draw = seededDraw(machine.state.seed, machine.state.draws)
    machine.state.draws += 1
    return grown + Math.round(from + draw * Math.max(to - from, 0))
  })

/** Runs the recovery: `catch.do` with the task's input and the error, or the input handed on. */
const recover = (step: Step, body: TryBody, state: TryState, error: ErrorObject, cause: Cause) =>
  Effect.gen(function* () {
    if (body.catch.do === undefined) return { tag: "done", value: step.frame.input, cause } satisfies BodyOutcome
    const list = newList(step.machine, step.task.reference, "catch", step.frame.input, { [`$${body.catch.as}`]: error })
    state.recovering = list
    return listOutcome(yield* driveList(step.machine, list, step.thread, step.scope, undefined, cause))
  })

/** An error left the `try` list (§9.2): caught or not, then retried after a durable delay or recovered. */
const handleFault = (
  step: Step,
  body: TryBody,
  state: TryState,
  fault: Fault,
  cause: Cause
): Effect.Effect<BodyOutcome, Raised | Stopped> =>
  Effect.gen(function* () {
    const variables = bodyVariables(step, { [`$${body.catch.as}`]: fault.error })
    const caught = passesFilter(body.catch.errors, fault.error) && (yield* conditionsPass(step, body.catch, variables))
    if (!caught) return { tag: "raised", fault, cause } satisfies BodyOutcome
    const policy = body.catch.retry
    const delay = policy === undefined ? undefined : yield* retryDelay(step, policy, state, variables)
    if (delay === undefined) return yield* recover(step, body, state, fault.error, cause)
    state.retryTimer = armTimer(step.machine, step.machine.now + delay, { kind: "retry", frame: step.frame.id })
    step.entry = cause
    recordWaiting(step, "timer")
    return { tag: "waiting" } satisfies BodyOutcome
  })

/** What an attempt's list outcome means for the task. */
const afterAttempt = (step: Step, body: TryBody, state: TryState, outcome: ListOutcome) => {
  if (outcome.tag === "waiting") return Effect.succeed<BodyOutcome>(outcome)
  disarmTimer(step.machine, state.attemptTimer)
  state.attemptTimer = undefined
  state.list = undefined
  if (outcome.tag !== "raised") return Effect.succeed(listOutcome(outcome))
  return handleFault(step, body, state, outcome.fault, outcome.cause)
}

/** Starts an attempt: the `try` list from its first task on the task's input, with the attempt's time limit. */
const attempt = (step: Step, body: TryBody, state: TryState, cause: Cause) =>
  Effect.gen(function* () {
    const { machine, task, frame } = step
    const limit = body.catch.retry?.limit.attemptDuration
    if (limit !== undefined) {
      const after = yield* evaluateDuration(machine, limit, bodyVariables(step), task.reference)
      state.attemptTimer = armTimer(machine, machine.now + after, { kind: "attempt", frame: frame.id })
    }
    const list = newList(machine, task.reference, "try", frame.input)
    state.list = list
    const outcome = yield* driveList(machine, list, step.thread, step.scope, undefined, cause)
    return yield* afterAttempt(step, body, state, outcome)
  })

/** `try` (workflow-format.md §9.2, §9.3): the first attempt. */
export const startTry = (step: Step, body: TryBody): Effect.Effect<BodyOutcome, Raised | Stopped> => {
  const state: TryState = { kind: "try", attempt: 0, firstAt: step.machine.now }
  step.frame.body = state
  return attempt(step, body, state, step.entry)
}

/**
 * A `try` under way moved: its retry delay passed (the next attempt, under new task runs), its attempt ran past its
 * duration (`ERR/timeout` 408, its calls cancelled with kind `deadline`), or its attempt or recovery moved.
 */
export const resumeTry = (
  step: Step,
  body: TryBody,
  state: TryState,
  signal: Signal
): Effect.Effect<BodyOutcome, Raised | Stopped> =>
  Effect.gen(function* () {
    const { machine, frame, task } = step
    if (signal.target === frame.id && signal.kind === "timer") {
      delete machine.state.timers[signal.id]
      if (signal.purpose.kind === "retry") {
        state.retryTimer = undefined
        state.attempt += 1
        return yield* attempt(step, body, state, "input")
      }
      state.attemptTimer = undefined
      if (state.list !== undefined) cancelList(machine, state.list, "deadline")
      state.list = undefined
      return yield* handleFault(
        step,
        body,
        state,
        timeoutFault(task.reference, `${task.name} attempt timed out`),
        "input"
      )
    }
    if (state.recovering !== undefined) {
      return listOutcome(yield* driveList(machine, state.recovering, step.thread, step.scope, signal, "input"))
    }
    if (state.list === undefined) return { tag: "waiting" } satisfies BodyOutcome
    const outcome = yield* driveList(machine, state.list, step.thread, step.scope, signal, "input")
    return yield* afterAttempt(step, body, state, outcome)
  })
