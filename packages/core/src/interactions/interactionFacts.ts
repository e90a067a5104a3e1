import type { CallerReference } from "../domain/Caller.js"

/** `interaction_requested`: a run asked its party (function-formats.md §3.7); held for an agent here. */
export interface InteractionRequested {
  /** `agent`, or the server and tool the request goes through. */
  readonly delivery: "agent" | { readonly server: string; readonly tool: string }
  readonly to: string
  readonly answerer?: string
  readonly message_bytes: number
  readonly takes_answer: boolean
  readonly expires_at: string
}

/** What a waiting interaction run recorded it waits on: the request exactly as asked (`run_deferred.record`). */
export interface RequestRecord {
  readonly to: string
  readonly message: string
  readonly answer_schema: unknown
  readonly answerer: string | null
  readonly reply: unknown
  readonly deliver: unknown
  readonly replies: unknown
  readonly expires_at: string
  readonly requested_at: string
}

/** `run_deferred` of an interaction run: the request it waits on. */
export interface RunDeferred {
  readonly record: RequestRecord
}

/** `request_answered`: the answer a run takes; its id and time are the fact's own. */
export interface RequestAnswered {
  readonly answer: unknown
  readonly claimed_for?: string
  readonly answered_by: CallerReference
}

/** The facts of a waiting interaction run beside the common run facts. */
export const interactionFactTypes = ["interaction_requested", "run_deferred", "request_answered"] as const

/** The facts that end a run. */
export const runEndingTypes = ["run_succeeded", "run_rejected", "run_failed"] as const

/** Whether a run ending closes a request: the host records the request as the record of every ending it makes. */
export const closesRequest = (data: unknown): boolean =>
  typeof (data as { record?: { requested_at?: unknown } } | null)?.record?.requested_at === "string"
