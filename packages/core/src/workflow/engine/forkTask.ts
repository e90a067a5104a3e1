import { Effect } from "effect"
import type { TaskBody } from "../../formats/workflow/Task.js"
import { cancelTask } from "./cancelFrames.js"
import { resumeTask, startTask } from "./drive.js"
import type { Stopped } from "./faults.js"
import { type BodyOutcome, holds, type Signal, type Step, type TaskOutcome } from "./frames.js"
import type { BodyState, BranchState } from "./RunStateShape.js"
import type { Cause } from "./StepRecorder.js"

type ForkBody = Extract<TaskBody, { kind: "fork" }>
type ForkState = Extract<BodyState, { kind: "fork" }>

/** Notes how a branch stands after it moved: a branch task whose `then` is `end` ends the run. */
const noteBranch = (state: ForkState, index: number, outcome: TaskOutcome): void => {
  const branch = state.branches[index]!
  if (outcome.tag === "waiting") return
  branch.frame = undefined
  if (outcome.tag === "raised") {
    branch.status = "raised"
    branch.fault = outcome.fault
    state.firstFailed ??= index
    return
  }
  const ends = outcome.tag === "end" || outcome.flow._tag === "End"
  branch.status = ends ? "ended" : "done"
  branch.value = outcome.value
}

/** Stops the branches still running: their calls end `parent_ended` (decision W8). */
const cancelRunning = (step: Step, state: ForkState): void => {
  for (const branch of state.branches) {
    if (branch.status !== "running" || branch.frame === undefined) continue
    cancelTask(step.machine, branch.frame, "parent_ended", true)
    branch.status = "cancelled"
    branch.frame = undefined
  }
}

/**
 * Whether the fork is decided (workflow-format.md §10.2, decision W8): a branch ending the run ends it; without
 * `compete` the first failure raises and all done gives the outputs in written order; with `compete` the first
 * branch done wins and all failed raises the first failure. The others are cancelled.
 */
const decision = (step: Step, body: ForkBody, state: ForkState, cause: Cause): BodyOutcome | undefined => {
  const total = body.branches.length
  const all = state.branches.length === total
  const ended = state.branches.find((branch) => branch.status === "ended")
  const failed = state.firstFailed === undefined ? undefined : state.branches[state.firstFailed]!.fault!
  const decided = (outcome: BodyOutcome) => {
    cancelRunning(step, state)
    return outcome
  }
  if (ended !== undefined) return decided({ tag: "end", value: ended.value, cause })
  if (!body.compete) {
    if (failed !== undefined) return decided({ tag: "raised", fault: failed, cause })
    if (all && state.branches.every((branch) => branch.status === "done")) {
      return { tag: "done", value: state.branches.map((branch) => branch.value), cause }
    }
    return undefined
  }
  const winner = state.branches.find((branch) => branch.status === "done")
  if (winner !== undefined) return decided({ tag: "done", value: winner.value, cause })
  if (all && failed !== undefined && state.branches.every((branch) => branch.status === "raised")) {
    return { tag: "raised", fault: failed, cause }
  }
  return undefined
}

const causeOf = (outcome: TaskOutcome, fallback: Cause): Cause => (outcome.tag === "waiting" ? fallback : outcome.entry)

/**
 * `fork` (§10.2): each branch starts with the fork's input and its own `$context` (decision W8), in written order
 * until the fork is decided.
 */
export const startFork = (step: Step, body: ForkBody): Effect.Effect<BodyOutcome, Stopped> =>
  Effect.gen(function* () {
    const state: ForkState = { kind: "fork", branches: [] }
    step.frame.body = state
    if (body.branches.length === 0) return { tag: "done", value: body.compete ? step.frame.input : [] }
    let cause: Cause = step.entry
    for (const [index, task] of body.branches.entries()) {
      const branch: BranchState = { context: step.thread.context, status: "running" }
      state.branches.push(branch)
      const outcome = yield* startTask(
        step.machine,
        task,
        step.frame.input,
        branch,
        step.scope,
        step.entry,
        (frame) => {
          branch.frame = frame
        }
      )
      noteBranch(state, index, outcome)
      cause = causeOf(outcome, cause)
      const decided = decision(step, body, state, cause)
      if (decided !== undefined) return decided
    }
    return { tag: "waiting" }
  })

/** A fork under way moved: the branch holding the signal's target takes it, then the fork may be decided. */
export const resumeFork = (
  step: Step,
  body: ForkBody,
  state: ForkState,
  signal: Signal
): Effect.Effect<BodyOutcome, Stopped> =>
  Effect.gen(function* () {
    const index = state.branches.findIndex(
      (branch) => branch.status === "running" && branch.frame !== undefined && holds(branch.frame, signal.target)
    )
    const branch = state.branches[index]
    if (branch?.frame === undefined) return { tag: "waiting" } satisfies BodyOutcome
    const outcome = yield* resumeTask(step.machine, branch.frame, branch, step.scope, signal)
    noteBranch(state, index, outcome)
    return decision(step, body, state, causeOf(outcome, "input")) ?? { tag: "waiting" }
  })
