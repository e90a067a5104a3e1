import { framesUnder } from "./frames.js"
import { disarmTimer, type Machine } from "./Machine.js"
import type { ListFrame, TaskFrame } from "./RunStateShape.js"
import { taskAt } from "./taskIndex.js"
import type { CancelKind } from "./WorkflowInput.js"

/** Stops a list under way: its yield timer and its running task. */
export const cancelList = (machine: Machine, list: ListFrame, kind: CancelKind): void => {
  disarmTimer(machine, list.yieldTimer)
  list.yieldTimer = undefined
  if (list.child !== undefined) cancelTask(machine, list.child, kind, true)
  list.child = undefined
}

/** Closes what the frame's own body holds open: its call (cancelled with `kind`), timers and listen. */
const closeBody = (machine: Machine, frame: TaskFrame, kind: CancelKind): void => {
  const { state, outputs } = machine
  const body = frame.body
  if (body === undefined) return
  switch (body.kind) {
    case "call": {
      const call = state.calls[body.key]
      if (call === undefined) return
      outputs.push({ kind: "cancel_call", key: body.key, runId: call.runId, cancelKind: kind })
      disarmTimer(machine, call.timer)
      delete state.calls[body.key]
      return
    }
    case "wait":
      disarmTimer(machine, body.timer)
      return
    case "listen":
      if (body.registered) outputs.push({ kind: "unlisten", key: body.key })
      delete state.listens[body.key]
      return
    case "try":
      disarmTimer(machine, body.attemptTimer)
      disarmTimer(machine, body.retryTimer)
      return
    default:
      return
  }
}

/**
 * Stops a task and everything under it (workflow-format.md §9.4, §10.2): calls cancelled with `kind`, timers
 * disarmed, listens closed, each stopped task recorded `cancelled` (the frame itself only when `recordSelf`).
 */
export const cancelTask = (machine: Machine, frame: TaskFrame, kind: CancelKind, recordSelf: boolean): void => {
  disarmTimer(machine, frame.timer)
  frame.timer = undefined
  closeBody(machine, frame, kind)
  for (const inner of framesUnder(frame)) {
    if ("part" in inner) cancelList(machine, inner, kind)
    else cancelTask(machine, inner, kind, true)
  }
  if (frame.body?.kind === "fork") {
    for (const branch of frame.body.branches) if (branch.status === "running") branch.status = "cancelled"
  }
  if (recordSelf) {
    machine.steps.record(frame, taskAt(machine.index, frame.reference).name, "cancelled", "input")
  }
}
