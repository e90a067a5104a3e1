import type { Task } from "../../formats/workflow/Task.js"
import type { Flow } from "../../formats/workflow/TaskCommon.js"
import type { Variables } from "./evaluation.js"
import type { Machine } from "./Machine.js"
import type { Fault, ListFrame, TaskFrame, Thread, TimerPurpose } from "./RunStateShape.js"
import type { Cause } from "./StepRecorder.js"
import type { CallAnswer, RunEvent } from "./WorkflowInput.js"

/** What an input delivers to the frame it concerns (`target`, a frame id). */
export type Signal = { readonly target: number } & (
  | { readonly kind: "timer"; readonly id: string; readonly purpose: TimerPurpose }
  | { readonly kind: "answer"; readonly key: string; readonly answer: CallAnswer }
  | { readonly kind: "event"; readonly event: RunEvent; readonly slot: number }
  | { readonly kind: "event_failed"; readonly fault: Fault }
)

/** How a task stands after it was moved. `entry` is its step entry, the cause of what follows. */
export type TaskOutcome =
  | { readonly tag: "completed"; readonly value: unknown; readonly flow: Flow; readonly entry: number }
  | { readonly tag: "waiting" }
  | { readonly tag: "raised"; readonly fault: Fault; readonly entry: number }
  | { readonly tag: "end"; readonly value: unknown; readonly entry: number }

/** How a task's body stands: done with its produced value (and a switch's chosen flow), or not. */
export type BodyOutcome =
  | { readonly tag: "done"; readonly value: unknown; readonly flow?: Flow; readonly cause?: Cause }
  | { readonly tag: "waiting" }
  | { readonly tag: "raised"; readonly fault: Fault; readonly cause?: Cause }
  | { readonly tag: "end"; readonly value: unknown; readonly cause?: Cause }

/** How a list stands: done (left by `exit` or not), waiting, raised, or ending the run. */
export type ListOutcome =
  | { readonly tag: "done"; readonly value: unknown; readonly exited: boolean; readonly cause: Cause }
  | { readonly tag: "waiting" }
  | { readonly tag: "raised"; readonly fault: Fault; readonly cause: Cause }
  | { readonly tag: "end"; readonly value: unknown; readonly cause: Cause }

/** A task being moved: the machine, its task and frame, its thread (`$context`), the variables its lists add. */
export interface Step {
  readonly machine: Machine
  readonly task: Task
  readonly frame: TaskFrame
  readonly thread: Thread
  readonly scope: Variables
  /** The task's step entry in this input, once recorded. */
  entry: Cause
}

/** The lists and frames directly under a task frame. */
export const framesUnder = (frame: TaskFrame): ReadonlyArray<ListFrame | TaskFrame> => {
  const body = frame.body
  if (body === undefined) return []
  switch (body.kind) {
    case "do":
      return [body.list]
    case "for":
      return body.list === undefined ? [] : [body.list]
    case "try":
      return [body.list, body.recovering].filter((list): list is ListFrame => list !== undefined)
    case "fork":
      return body.branches.flatMap((branch) =>
        branch.status === "running" && branch.frame !== undefined ? [branch.frame] : []
      )
    default:
      return []
  }
}

const isList = (node: ListFrame | TaskFrame): node is ListFrame => "part" in node

/** Whether a frame (task or list) is, or holds, the frame `id`. */
export const holds = (node: ListFrame | TaskFrame, id: number): boolean => {
  if (node.id === id) return true
  if (isList(node)) return node.child !== undefined && holds(node.child, id)
  return framesUnder(node).some((inner) => holds(inner, id))
}

/** How many task frames (tasks under way) a frame is or holds. */
export const tasksUnderWay = (node: ListFrame | TaskFrame): number => {
  if (isList(node)) return node.child === undefined ? 0 : tasksUnderWay(node.child)
  return framesUnder(node).reduce((count, inner) => count + tasksUnderWay(inner), 1)
}

/** A new list frame with its input and the variables it adds. */
export const newList = (
  machine: Machine,
  owner: string,
  part: ListFrame["part"],
  value: unknown,
  vars?: Record<string, unknown>
): ListFrame => {
  machine.state.nextFrame += 1
  return { id: machine.state.nextFrame, owner, part, index: 0, value, ...(vars === undefined ? {} : { vars }) }
}

/** The task frame `id` in a tree, if it is there. */
export const frameById = (node: ListFrame | TaskFrame, id: number): TaskFrame | undefined => {
  if (isList(node)) return node.child === undefined ? undefined : frameById(node.child, id)
  if (node.id === id) return node
  for (const inner of framesUnder(node)) {
    const found = frameById(inner, id)
    if (found !== undefined) return found
  }
  return undefined
}
