import { Effect } from "effect"
import { jsonBytes } from "../../domain/utf8Bytes.js"
import type { Expression } from "../../formats/workflow/Expression.js"
import type { Task, TaskBody } from "../../formats/workflow/Task.js"
import { type Callee, callDeadlineFault, callFault, maxCallOutputBytes, oversizedOutputFault } from "./callErrors.js"
import { callWait } from "./callWait.js"
import { evaluateTemplate } from "./evaluation.js"
import { type Raised, raise, runtimeFault } from "./faults.js"
import type { BodyOutcome, Signal, Step } from "./frames.js"
import { armTimer, disarmTimer, executionKey } from "./Machine.js"
import { bodyVariables, recordWaiting } from "./stepVariables.js"
import { uuidV5 } from "./uuidV5.js"

/** Calls above a run at most (workflow-format.md §7.3). */
export const maxCallDepth = 8

/** The largest call input, 256 KiB as JSON (§7.1). */
export const maxCallInputBytes = 262_144

type CallBody = Extract<TaskBody, { kind: "call" }>

const textPart = (step: Step, part: string | Expression, what: string) =>
  Effect.flatMap(
    typeof part === "string"
      ? Effect.succeed<unknown>(part)
      : evaluateTemplate(step.machine, part, bodyVariables(step), step.task.reference),
    (value) =>
      typeof value === "string" && value !== ""
        ? Effect.succeed(value)
        : Effect.fail(
            raise(runtimeFault("validation", 400, step.task.reference, "Invalid call", `with.${what} must be text`))
          )
  )

/**
 * `call: run_definition` (§7): the callee's run id derived from the call key (UUIDv5), its deadline the call's
 * wait bound from now (never past the run's end), the deadline timer armed; a call deeper than 8 raises
 * `ERR/runtime` 409 without starting.
 */
export const startCall = (step: Step, body: CallBody): Effect.Effect<BodyOutcome, Raised> =>
  Effect.gen(function* () {
    const { machine, task, frame } = step
    const { state } = machine
    const type = yield* textPart(step, body.type, "type")
    const name = yield* textPart(step, body.name, "name")
    const input = yield* evaluateTemplate(machine, body.input, bodyVariables(step), task.reference)
    const bytes = jsonBytes(input)
    if (bytes > maxCallInputBytes) {
      return yield* raise(
        runtimeFault(
          "validation",
          400,
          task.reference,
          "Invalid call",
          `the call input is ${bytes} bytes as JSON, more than 256 KiB`
        )
      )
    }
    if (state.limits.callDepth + 1 > maxCallDepth) {
      return yield* raise(
        runtimeFault("runtime", 409, task.reference, "Too many calls deep", `a call sits at most ${maxCallDepth} deep`)
      )
    }
    const key = executionKey(machine, task.reference, frame.run)
    const runId = uuidV5(key)
    const wait = callWait(state.limits, task.reference, body)
    const deadlineAt = Math.min(machine.now + wait, state.limits.endsBy)
    machine.outputs.push({ kind: "start_call", key, runId, reference: task.reference, type, name, input, deadlineAt })
    const timer = armTimer(machine, deadlineAt, { kind: "deadline", frame: frame.id, call: key })
    state.calls[key] = { runId, frame: frame.id, reference: task.reference, deadlineAt, timer, type, name }
    frame.body = { kind: "call", key }
    recordWaiting(step, "call", { child: runId })
    return { tag: "waiting" }
  })

/**
 * A waiting call moved: its callee's ending (§7.4) or its deadline (§7.2, the callee cancelled with kind
 * `deadline`). The call is closed either way.
 */
export const resumeCall = (step: Step, task: Task, key: string, signal: Signal): Effect.Effect<BodyOutcome, Raised> => {
  const { machine } = step
  const call = machine.state.calls[key]
  if (call === undefined || (signal.kind !== "timer" && signal.kind !== "answer")) {
    return Effect.succeed({ tag: "waiting" })
  }
  const callee: Callee = { type: call.type, name: call.name, runId: call.runId }
  delete machine.state.calls[key]
  if (signal.kind === "timer") {
    delete machine.state.timers[signal.id]
    machine.outputs.push({ kind: "cancel_call", key, runId: call.runId, cancelKind: "deadline" })
    return Effect.fail(raise(callDeadlineFault(callee, task.reference)))
  }
  disarmTimer(machine, call.timer)
  const { answer } = signal
  if (answer.status !== "succeeded") return Effect.fail(raise(callFault(answer, callee, task.reference)))
  if (jsonBytes(answer.output) > maxCallOutputBytes) {
    return Effect.fail(raise(oversizedOutputFault(callee, task.reference)))
  }
  return Effect.succeed({ tag: "done", value: answer.output ?? null })
}
