import type { WorkflowDocument } from "../../formats/workflow/WorkflowDocument.js"
import type { ExpressionEvaluator } from "../expressions/ExpressionEvaluator.js"
import type { EngineOutput } from "./EngineOutput.js"
import type { RunState, TimerPurpose } from "./RunStateShape.js"
import type { StepRecorder } from "./StepRecorder.js"
import type { TaskIndex } from "./taskIndex.js"

/** The expression work one input may do, in checkpoints (workflow-format.md §6.4). */
export const inputWorkBudget = 500

/** The expression work one expression may do. */
export const expressionWorkBudget = 250

/** Wall time the expressions of one input may take, in ms. */
export const inputWallTime = 2_000

/** Tasks one input runs before the engine yields (§6.4). */
export const tasksBeforeYield = 100

/** Expression work after which the engine yields between two tasks. */
export const workBeforeYield = 250

/**
 * Applying one input (ADR 0251): the document and its task index, the state being changed (a copy of the one
 * given), the input's time, and what the input has done so far: outputs, step entries, tasks run, work spent.
 */
export interface Machine {
  readonly document: WorkflowDocument
  readonly index: TaskIndex
  readonly state: RunState
  readonly now: number
  readonly outputs: Array<EngineOutput>
  readonly steps: StepRecorder
  readonly evaluator: ExpressionEvaluator["Type"]
  /** Wall-clock ms by which this input's expressions must be done. */
  readonly deadline: number
  /** Checkpoints spent by this input's expressions. */
  work: number
  /** Tasks this input started. */
  tasks: number
  /**
   * Ids of the events this input took (an offered one by its record id too) or emitted: the host keeps them so it
   * never applies a repeat (ADR 0420).
   */
  readonly seen: Array<string>
}

/** Arms a timer due at `dueAt` (never before the input's time) for `purpose`; returns its id. */
export const armTimer = (machine: Machine, dueAt: number, purpose: TimerPurpose): string => {
  const { state } = machine
  state.nextTimer += 1
  const id = String(state.nextTimer)
  const due = Math.max(dueAt, machine.now)
  state.timers[id] = { dueAt: due, purpose }
  machine.outputs.push({ kind: "arm_timer", id, dueAt: due })
  return id
}

/** Disarms a timer, if still armed. */
export const disarmTimer = (machine: Machine, id: string | undefined): void => {
  if (id === undefined || machine.state.timers[id] === undefined) return
  delete machine.state.timers[id]
  machine.outputs.push({ kind: "cancel_timer", id })
}

/** The key of a task execution (workflow-format.md §16.1): `<run id> <reference> <run>`. */
export const executionKey = (machine: Machine, reference: string, run: number): string =>
  `${machine.state.runId} ${reference} ${run}`
