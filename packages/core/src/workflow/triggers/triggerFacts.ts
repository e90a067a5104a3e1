import { uuidV5 } from "../engine/uuidV5.js"

/** `schedule_passed`: a schedule trigger's due time that started no run (its run was still going). */
export const schedulePassed = "schedule_passed"

/** The data of `schedule_passed`: the trigger, the latest due time passed, how many passed, and why. */
export interface SchedulePassed {
  readonly reference: string
  readonly due: string
  readonly count: number
  readonly reason: string
}

/** `trigger_start_queued`: an event trigger's start held back by the rate guard (workflow-format.md §12.4). */
export const triggerStartQueued = "trigger_start_queued"

/** The data of `trigger_start_queued`: what the start will be when its minute comes. */
export interface TriggerStartQueued {
  readonly run_id: string
  readonly version: number
  /** The id of the event's record: the run's input is read from it. */
  readonly record_id: string
  readonly depth: number
}

/** `trigger_start_dropped`: a queued start the playbook refused for good, or whose workflow changed. */
export const triggerStartDropped = "trigger_start_dropped"

/** `trigger_cursor_moved`: how far an instance matched a playbook's facts against its event triggers (ADR 0283). */
export const triggerCursorMoved = "trigger_cursor_moved"

/** The data of `trigger_cursor_moved`: the ledger position of the last fact matched. */
export interface TriggerCursorMoved {
  readonly position: string
}

/** The fact types of a workflow's trigger stream. */
export const triggerStreamTypes = [schedulePassed, triggerStartQueued, triggerStartDropped] as const

/** The stream of one workflow's trigger bookkeeping, outside the playbook's events (ADR 0282). */
export const triggerStream = (org: string, playbook: string, name: string): string =>
  `triggers/${org}/${playbook}/${name}`

/** The stream of a playbook's event-trigger cursor. */
export const triggerCursorStream = (org: string, playbook: string): string => `triggers/${org}/${playbook}`

/** The namespace of triggered run ids. */
const triggeredRunNamespace = "3b0c1f7e-52a4-5c6e-8d1f-9a7e4c2b6d30"

/**
 * The run id of a triggered run (workflow-format.md §12.4): the UUID v5 of the workflow, its version, the trigger's
 * reference and the event's record id or the due time, so each starts at most one run however often it is seen.
 */
export const triggeredRunId = (
  org: string,
  playbook: string,
  name: string,
  version: number,
  reference: string,
  what: string
): string => uuidV5(JSON.stringify([org, playbook, name, version, reference, what]), triggeredRunNamespace)

/** A fact id derived from its key, so two instances recording the same thing record it once. */
export const derivedFactId = (key: ReadonlyArray<unknown>): string => uuidV5(JSON.stringify(key), triggeredRunNamespace)
