import type { TriggerView } from "./TriggerView.js"

/** A trigger in its current form, from the record that activated it (workflow-format.md §12.5). */
export interface TriggerActivation {
  readonly trigger: TriggerView
  /** The record that saved it in this form (or restored it): a schedule's cause, an event trigger's start. */
  readonly activated_id: string
  readonly activated_at: string
  /** The activating record's global position: a fact recorded before it is not matched by this form. */
  readonly activated_position: number
}

/** An event trigger's earlier form, kept so a fact recorded before the change starts the version it applied to. */
export interface EarlierEventTrigger extends TriggerActivation {
  readonly version: number
  /** The global position of the record that changed it. */
  readonly until_position: number
}

/** An event trigger's start held back by the rate guard, oldest first. */
export interface QueuedStart {
  readonly run_id: string
  readonly version: number
  readonly record_id: string
  readonly depth: number
}

/**
 * The trigger state of one workflow (ADR 0281), folded from its definition's facts, the facts of the runs its
 * triggers started and its trigger stream: the triggers of its current version with their activations, its status,
 * the run each schedule trigger has going (kept across versions), the latest due time each handled, the event
 * starts of the current minute and the starts queued for later minutes.
 */
export interface WorkflowTriggers {
  readonly org: string
  readonly playbook: string
  readonly name: string
  readonly version: number
  readonly status: "active" | "paused" | "retired"
  /** The person who saved or restored the version, when a person did (HTTP "A saved workflow"). */
  readonly acts_for?: string
  readonly triggers: ReadonlyArray<TriggerActivation>
  readonly earlier_event?: EarlierEventTrigger
  /** When it was last resumed: nothing due or recorded before then while it was paused is made up. */
  readonly resumed_at?: string
  /** The global positions of the latest pause and the resume after it. */
  readonly paused_position?: number
  readonly resumed_position?: number
  /** Schedule trigger reference → the run it started that has not ended. */
  readonly running: Readonly<Record<string, string>>
  /** Schedule trigger reference → the latest due time it handled (ISO). */
  readonly last_due: Readonly<Record<string, string>>
  /** The minute (ISO, to the minute) of the latest event-trigger start, and how many started in it. */
  readonly event_minute?: string
  readonly event_starts: number
  readonly queued: ReadonlyArray<QueuedStart>
}

/** The most starts an event trigger queues for later minutes (workflow-format.md §12.4). */
export const queueBound = 1_000

/** The most runs an event trigger starts per minute. */
export const startsPerMinute = 60

/** The schedule trigger of a reference, if the workflow has it. */
export const activationOf = (state: WorkflowTriggers, reference: string): TriggerActivation | undefined =>
  state.triggers.find((activation) => activation.trigger.reference === reference)
