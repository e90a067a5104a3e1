import { Effect } from "effect"
import { resumeCall, startCall } from "./callTask.js"
import { driveList } from "./drive.js"
import { startEmit } from "./emitTask.js"
import type { Raised, Stopped } from "./faults.js"
import { resumeFork, startFork } from "./forkTask.js"
import { resumeFor, startFor } from "./forTask.js"
import { type BodyOutcome, newList, type Signal, type Step } from "./frames.js"
import { resumeWait, startSet, startSwitch, startWait } from "./leafTasks.js"
import { resumeListen, startListen } from "./listenTask.js"
import { listOutcome } from "./listOutcome.js"
import { startRaise } from "./raiseTask.js"
import { resumeTry, startTry } from "./tryTask.js"

/** Starts a task's body on its effective input, by kind (workflow-format.md §3.2). */
export const startBody = (step: Step): Effect.Effect<BodyOutcome, Raised | Stopped> => {
  const body = step.task.body
  switch (body.kind) {
    case "call":
      return startCall(step, body)
    case "set":
      return startSet(step, body)
    case "do": {
      const list = newList(step.machine, step.task.reference, "do", step.frame.input)
      step.frame.body = { kind: "do", list }
      return Effect.map(driveList(step.machine, list, step.thread, step.scope, undefined, step.entry), listOutcome)
    }
    case "switch":
      return startSwitch(step, body)
    case "for":
      return startFor(step, body)
    case "fork":
      return startFork(step, body)
    case "try":
      return startTry(step, body)
    case "raise":
      return startRaise(step, body)
    case "wait":
      return startWait(step, body)
    case "listen":
      return startListen(step, body)
    case "emit":
      return startEmit(step, body)
  }
}

/** Moves a task's body under way with a signal for it or for a frame under it. */
export const resumeBody = (step: Step, signal: Signal): Effect.Effect<BodyOutcome, Raised | Stopped> => {
  const state = step.frame.body
  const body = step.task.body
  if (state === undefined) return Effect.succeed({ tag: "waiting" })
  switch (state.kind) {
    case "call":
      return resumeCall(step, step.task, state.key, signal)
    case "wait":
      return Effect.succeed(resumeWait(step, signal))
    case "listen":
      return body.kind === "listen" ? resumeListen(step, body, signal) : Effect.succeed({ tag: "waiting" })
    case "do":
      return Effect.map(driveList(step.machine, state.list, step.thread, step.scope, signal, "input"), listOutcome)
    case "for":
      return body.kind === "for" ? resumeFor(step, body, state, signal) : Effect.succeed({ tag: "waiting" })
    case "fork":
      return body.kind === "fork" ? resumeFork(step, body, state, signal) : Effect.succeed({ tag: "waiting" })
    case "try":
      return body.kind === "try" ? resumeTry(step, body, state, signal) : Effect.succeed({ tag: "waiting" })
  }
}
