import { Effect } from "effect"
import type { Task } from "../../formats/workflow/Task.js"
import type { Flow } from "../../formats/workflow/TaskCommon.js"
import { resumeBody, startBody } from "./bodies.js"
import { cancelTask } from "./cancelFrames.js"
import { evaluateCondition, evaluateDuration, evaluateTemplate, type Variables } from "./evaluation.js"
import { runtimeFault, Stopped, timeoutFault } from "./faults.js"
import type { BodyOutcome, ListOutcome, Signal, Step, TaskOutcome } from "./frames.js"
import { holds } from "./frames.js"
import { armTimer, disarmTimer, type Machine, tasksBeforeYield, workBeforeYield } from "./Machine.js"
import type { Fault, ListFrame, TaskFrame, Thread } from "./RunStateShape.js"
import type { Cause } from "./StepRecorder.js"
import { listAt, taskAt } from "./taskIndex.js"
import { taskVariables } from "./variables.js"

/** Tasks a run may start without waiting (workflow-format.md §15). */
export const maxTasksWithoutWait = 10_000

const continueFlow: Flow = { _tag: "Continue" }

const errorOf = (fault: Fault) => ({
  type: fault.error.type,
  ...(fault.error.title === undefined ? {} : { title: fault.error.title })
})

/** The task raised: its timeout disarmed, the step recorded `raised`. */
const raisedStep = (step: Step, fault: Fault, cause: Cause = step.entry): TaskOutcome => {
  disarmTimer(step.machine, step.frame.timer)
  step.frame.timer = undefined
  const entry = step.machine.steps.record(step.frame, step.task.name, "raised", cause, { error: errorOf(fault) })
  return { tag: "raised", fault, entry }
}

/** After the body produced `value`: `output.as`, `export.as`, the timeout disarmed, the step `completed`. */
const completedStep = (step: Step, value: unknown, flow: Flow | undefined, cause: Cause) =>
  Effect.gen(function* () {
    const { machine, task, frame, thread, scope } = step
    const output =
      task.outputAs === undefined
        ? value
        : yield* evaluateTemplate(
            machine,
            task.outputAs,
            taskVariables(machine, task, frame, thread, scope, { data: value, input: frame.input, produced: value }),
            task.reference
          )
    if (task.exportAs !== undefined) {
      thread.context = yield* evaluateTemplate(
        machine,
        task.exportAs,
        taskVariables(machine, task, frame, thread, scope, {
          data: output,
          input: frame.input,
          output,
          produced: value
        }),
        task.reference
      )
    }
    disarmTimer(machine, frame.timer)
    frame.timer = undefined
    const entry = machine.steps.record(frame, task.name, "completed", cause)
    return { tag: "completed", value: output, flow: flow ?? task.then, entry } satisfies TaskOutcome
  })

/** Turns a body's outcome into the task's. */
const finishStep = (step: Step, outcome: BodyOutcome): Effect.Effect<TaskOutcome, Stopped> => {
  switch (outcome.tag) {
    case "waiting":
      return Effect.succeed(outcome)
    case "raised":
      return Effect.succeed(raisedStep(step, outcome.fault, outcome.cause ?? step.entry))
    case "end": {
      disarmTimer(step.machine, step.frame.timer)
      step.frame.timer = undefined
      const entry = step.machine.steps.record(step.frame, step.task.name, "completed", outcome.cause ?? step.entry)
      return Effect.succeed({ tag: "end", value: outcome.value, entry })
    }
    case "done":
      return completedStep(step, outcome.value, outcome.flow, outcome.cause ?? step.entry).pipe(
        Effect.catchTag("Raised", (raised) => Effect.succeed(raisedStep(step, raised.fault)))
      )
  }
}

/**
 * Starts a task on its raw input (workflow-format.md §3.1): counts its run, records it `started`, then `if` →
 * `timeout` → `input.from` → body → `output.as` → `export.as`. `attach` hangs the frame where it runs before it can
 * wait.
 */
export const startTask = (
  machine: Machine,
  task: Task,
  raw: unknown,
  thread: Thread,
  scope: Variables,
  cause: Cause,
  attach: (frame: TaskFrame) => void
): Effect.Effect<TaskOutcome, Stopped> =>
  Effect.gen(function* () {
    const { state } = machine
    const run = (state.runs[task.reference] ?? 0) + 1
    state.runs[task.reference] = run
    machine.tasks += 1
    state.counters.tasksWithoutWait += 1
    if (state.counters.tasksWithoutWait > maxTasksWithoutWait) {
      return yield* new Stopped({
        error: runtimeFault(
          "runtime",
          500,
          task.reference,
          "Too many tasks without waiting",
          `the run started ${maxTasksWithoutWait} tasks without waiting`
        ).error
      })
    }
    state.nextFrame += 1
    const frame: TaskFrame = { id: state.nextFrame, reference: task.reference, run, raw, input: raw, at: machine.now }
    attach(frame)
    const step: Step = { machine, task, frame, thread, scope, entry: cause }
    step.entry = machine.steps.record(frame, task.name, "started", cause)
    const before = () => taskVariables(machine, task, frame, thread, scope, { data: raw })
    const begun = Effect.gen(function* () {
      if (task.if !== undefined && !(yield* evaluateCondition(machine, task.if, before(), task.reference))) {
        const entry = machine.steps.record(frame, task.name, "skipped", cause)
        return { tag: "completed", value: raw, flow: continueFlow, entry } satisfies TaskOutcome
      }
      if (task.timeout !== undefined) {
        const after = yield* evaluateDuration(machine, task.timeout.after, before(), task.reference)
        frame.timer = armTimer(machine, machine.now + after, { kind: "timeout", frame: frame.id })
      }
      if (task.inputFrom !== undefined) {
        frame.input = yield* evaluateTemplate(machine, task.inputFrom, before(), task.reference)
      }
      return yield* startBody(step).pipe(Effect.flatMap((outcome) => finishStep(step, outcome)))
    })
    return yield* begun.pipe(Effect.catchTag("Raised", (raised) => Effect.succeed(raisedStep(step, raised.fault))))
  })

/** The task timed out (§9.4): everything under it cancelled (kind `deadline`), the step `timed_out`. */
const timedOut = (step: Step): TaskOutcome => {
  const { machine, frame, task } = step
  delete machine.state.timers[frame.timer ?? ""]
  frame.timer = undefined
  cancelTask(machine, frame, "deadline", false)
  const fault = timeoutFault(task.reference, `${task.name} timed out`)
  const entry = machine.steps.record(frame, task.name, "timed_out", "input", { error: errorOf(fault) })
  return { tag: "raised", fault, entry }
}

/** Moves a task under way with a signal for it or for a frame under it. */
export const resumeTask = (
  machine: Machine,
  frame: TaskFrame,
  thread: Thread,
  scope: Variables,
  signal: Signal
): Effect.Effect<TaskOutcome, Stopped> => {
  const task = taskAt(machine.index, frame.reference)
  const step: Step = { machine, task, frame, thread, scope, entry: "input" }
  if (signal.target === frame.id && signal.kind === "timer" && signal.purpose.kind === "timeout") {
    return Effect.succeed(timedOut(step))
  }
  return resumeBody(step, signal).pipe(
    Effect.catchTag("Raised", (raised) => Effect.succeed<BodyOutcome>({ tag: "raised", fault: raised.fault })),
    Effect.flatMap((outcome) => finishStep(step, outcome))
  )
}

/** Whether the input has done enough to pause between two tasks (§6.4). */
const shouldYield = (machine: Machine): boolean =>
  machine.tasks > 0 && (machine.tasks >= tasksBeforeYield || machine.work >= workBeforeYield)

/**
 * Runs a list forward (workflow-format.md §4): delivers the signal to the task holding its target, then starts
 * the next tasks by their flow until one waits, raises or ends the run, the list is left by `exit`, or the input
 * has done enough and the list yields on an immediate timer.
 */
export const driveList = (
  machine: Machine,
  list: ListFrame,
  thread: Thread,
  outer: Variables,
  signal: Signal | undefined,
  cause: Cause
): Effect.Effect<ListOutcome, Stopped> =>
  Effect.gen(function* () {
    const tasks = listAt(machine.document, machine.index, list.owner, list.part)
    const scope = list.vars === undefined ? outer : { ...outer, ...list.vars }
    let next = cause
    let moved: TaskOutcome | undefined
    if (signal !== undefined && signal.target === list.id) {
      delete machine.state.timers[list.yieldTimer ?? ""]
      list.yieldTimer = undefined
      next = "input"
    } else if (signal !== undefined) {
      // A signal for no frame of this list moves nothing.
      if (list.child === undefined || !holds(list.child, signal.target)) return { tag: "waiting" }
      moved = yield* resumeTask(machine, list.child, thread, scope, signal)
    }
    while (true) {
      if (moved === undefined) {
        if (list.index >= tasks.length) return { tag: "done", value: list.value, exited: false, cause: next }
        if (shouldYield(machine)) {
          list.yieldTimer = armTimer(machine, machine.now, { kind: "yield", frame: list.id })
          return { tag: "waiting" }
        }
        moved = yield* startTask(machine, tasks[list.index]!, list.value, thread, scope, next, (frame) => {
          list.child = frame
        })
      }
      const outcome: TaskOutcome = moved
      moved = undefined
      if (outcome.tag === "waiting") return outcome
      list.child = undefined
      if (outcome.tag === "raised") return { tag: "raised", fault: outcome.fault, cause: outcome.entry }
      if (outcome.tag === "end") return { tag: "end", value: outcome.value, cause: outcome.entry }
      list.value = outcome.value
      next = outcome.entry
      switch (outcome.flow._tag) {
        case "Continue":
          list.index += 1
          break
        case "Exit":
          return { tag: "done", value: list.value, exited: true, cause: next }
        case "End":
          return { tag: "end", value: list.value, cause: next }
        case "Jump":
          list.index = outcome.flow.index
          break
      }
    }
  })
