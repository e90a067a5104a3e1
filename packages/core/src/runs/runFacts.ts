import type { CallerReference } from "../domain/Caller.js"
import type { RejectionCause } from "../workflow/engine/RejectionCause.js"

/** `run_started`: an attempt of a run began (function-formats.md §1.8). */
export interface RunStarted {
  readonly input: unknown
  readonly input_sha256: string
  readonly calls_tools: boolean
  readonly finishes_later: boolean
  readonly started_by: CallerReference
  readonly attempt: number
  readonly output_shape?: string
}

/** `run_succeeded`: the run's output and its record. */
export interface RunSucceeded {
  readonly output: unknown
  readonly record: unknown
}

/** `run_rejected`: why the run was refused, and the record it kept, if any. */
export interface RunRejected {
  readonly reason: string
  readonly kind?: string
  readonly because?: string
  readonly detail: string
  readonly issues?: ReadonlyArray<{ readonly pointer: string; readonly detail: string }>
  readonly record?: unknown
  /** A workflow's: the step whose uncaught error ended it (workflow-format.md §14). */
  readonly cause?: RejectionCause
}

/** `run_failed`: the runtime broke while it ran; the incident names the log entry. */
export interface RunFailed {
  readonly incident: string
  readonly detail: string
}

/** `run_cancel_requested`: someone asked to cancel the run. */
export interface RunCancelRequested {
  readonly kind: string
  readonly reason?: string
}

/**
 * `attempt_resumed`: a started run taken up again (decision N3, F3): the attempt's number and the stream position
 * it goes on from.
 */
export interface AttemptResumed {
  readonly attempt: number
  readonly from: number
}

/** The fact types of a run's stream that the runs view folds. */
export const runFactTypes = [
  "run_started",
  "attempt_resumed",
  "run_succeeded",
  "run_rejected",
  "run_failed",
  "run_cancel_requested"
] as const

/** The stream of one run: `playbook/<org>/<playbook>/runs/<run id>`. */
export const runStream = (org: string, playbook: string, runId: string): string =>
  `playbook/${org}/${playbook}/runs/${runId}`

/** The prefix of every stream of a playbook: its definitions, its runs and its events. */
export const playbookStreamsPrefix = (org: string, playbook: string): string => `playbook/${org}/${playbook}/`
