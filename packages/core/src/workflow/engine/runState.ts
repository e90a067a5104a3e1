import type { ListenFilter, RunEnding } from "./EngineOutput.js"
import type { RunStateData } from "./Interpreter.js"
import type { RunState } from "./RunStateShape.js"

const shape = (state: RunStateData): RunState => state as unknown as RunState

/** Whether the run has settled. */
export const isEnded = (state: RunStateData): boolean => shape(state).ended !== undefined

/** How the run settled, once it has. */
export const runEnding = (state: RunStateData): RunEnding | undefined => shape(state).ended

/** The calls the run waits for: key, callee run id and deadline. */
export const openCalls = (
  state: RunStateData
): ReadonlyArray<{ readonly key: string; readonly runId: string; readonly deadlineAt: number }> =>
  Object.entries(shape(state).calls).map(([key, call]) => ({ key, runId: call.runId, deadlineAt: call.deadlineAt }))

/** The run's armed timers, soonest first (then by id, as they were armed). */
export const armedTimers = (state: RunStateData): ReadonlyArray<{ readonly id: string; readonly dueAt: number }> =>
  Object.entries(shape(state).timers)
    .map(([id, timer]) => ({ id, dueAt: timer.dueAt }))
    .sort((left, right) => left.dueAt - right.dueAt || Number(left.id) - Number(right.id))

/** When the run's next timer is due, if one is armed. */
export const nextDueAt = (state: RunStateData): number | undefined => armedTimers(state)[0]?.dueAt

/**
 * The run's open listens and the literal filters they registered for playbook events: the host offers a
 * playbook event whose type one names as an `event_received` input with `offered: true`; the interpreter decides
 * whether a listen takes it (an offer none takes is stale).
 */
export const openListens = (
  state: RunStateData
): ReadonlyArray<{ readonly key: string; readonly filters: ReadonlyArray<ListenFilter> }> =>
  Object.entries(shape(state).listens).map(([key, listen]) => ({ key, filters: listen.filters }))

/** The time of the run's last applied input (ms since the epoch). */
export const lastInputAt = (state: RunStateData): number => shape(state).lastAt
