import type { CallerReference } from "../domain/Caller.js"

/** `interaction_requested`: a run asked its party (function-formats.md §3.7), held for an agent or sent by a tool. */
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

/** `request_answered`: the answer a run takes; its id and time are the fact's own; `reply` for an answer read back. */
export interface RequestAnswered {
  readonly answer: unknown
  readonly claimed_for?: string
  readonly answered_by: CallerReference
  readonly reply?: ReplyIdentity
}

/** Where a delivered request landed: the conversation and the message's identity its tool answered (`sent`). */
export interface DeliveredAs {
  readonly conversation: string
  readonly id: string
}

/**
 * `delivery_started`: an attempt to deliver a request through its tool began (function-formats.md §3.7), recorded
 * before anything is sent. `lost_at` is when the attempt counts as failed (`lost`) if it has not ended by then,
 * as when its instance stopped (ADR 0192).
 */
export interface DeliveryStarted {
  readonly number: number
  readonly server: string
  readonly tool: string
  /** The size of the arguments as JSON; absent when they could not be rendered. */
  readonly arguments_bytes?: number
  /** The digest the arguments are kept under; only when they were kept. */
  readonly arguments_sha256?: string
  readonly content_kept: boolean
  readonly lost_at: string
}

/** What the ending of an attempt shows of the tool's result, when there was one. */
export interface AttemptResult {
  readonly result_bytes?: number
  /** The digest the result is kept under; only when it was kept. */
  readonly result_sha256?: string
  readonly duration_ms?: number
  readonly jsonrpc_id?: string | number | null
  readonly server_request_id?: string
}

/** `delivery_succeeded`: the tool took the request; where it landed, when its answer named that (`sent`). */
export interface DeliverySucceeded extends AttemptResult {
  readonly number: number
  readonly content_kept: boolean
  readonly delivered_as?: DeliveredAs
  /** Why the request counts as delivered without identity: a `sent` pointer that read nothing usable. */
  readonly detail?: string
  /** The conversation key its replies are read under (function-formats.md §3.5), for a request that reads them. */
  readonly replies_in?: string
}

/** A reply's identity, never its words: its id and sender as the listing tool gave them, and the conversation key. */
export interface ReplyIdentity {
  readonly id: string
  readonly sender: string
  readonly conversation: string
}

/** Why a reply from the answerer was not taken as the answer (§3.5). */
export type ReplyRefusal = "not_an_answer" | "invalid" | "too_long" | "ambiguous"

/** `reply_refused`: a reply from the answerer the request did not take; its identity, never its words. */
export interface ReplyRefused {
  readonly reply: ReplyIdentity
  readonly because: ReplyRefusal
  readonly detail: string
  /** For `invalid`: what the answer schema refused, under `/answer`. */
  readonly issues?: ReadonlyArray<{ readonly pointer: string; readonly detail: string }>
}

/** `replies_read`: a read of a conversation that found replies (ADR 0195), on its `conversation-calls` stream. */
export interface RepliesRead {
  readonly conversation: string
  readonly server: string
  readonly tool: string
  /** How many replies the tool listed. */
  readonly replies: number
  /** The runs whose request a reply answered, and how many replies were refused. */
  readonly answered: ReadonlyArray<string>
  readonly refused: number
  /** The id of the newest reply listed: what `since` renders on the next read. */
  readonly cursor: string
  readonly duration_ms: number
}

/**
 * `telling_started`: the answerer of a request is told, through a tool, why one of their replies was refused (ADR
 * 0198), on the conversation's `conversation-calls` stream; the `number`th telling of that request, at most 3.
 */
export interface TellingStarted {
  readonly run_id: string
  readonly number: number
  /** The refused reply the telling answers. */
  readonly reply: ReplyIdentity
  readonly server: string
  readonly tool: string
  readonly arguments_bytes: number
}

/** `telling_succeeded`: the tool took the telling. */
export interface TellingSucceeded {
  readonly run_id: string
  readonly number: number
  readonly duration_ms: number
}

/** Why a telling failed; no other attempt follows it (ADR 0198). */
export type TellingFailure =
  | "tool_error"
  | "server_failure"
  | "timed_out"
  | "tool_not_offered"
  | "arguments_unrenderable"

/** `telling_failed`: the telling did not reach the answerer. */
export interface TellingFailed {
  readonly run_id: string
  readonly number: number
  readonly because: TellingFailure
  readonly detail: string
}

/** The most times the answerer of one request is told why a reply was refused (function-formats.md §3.9). */
export const tellingsBound = 3

/** Why a read of a conversation failed (ADR 0195). */
export type ReadingFailure =
  | "tool_error"
  | "server_failure"
  | "timed_out"
  | "tool_not_offered"
  | "arguments_unrenderable"
  | "too_large"
  | "unreadable"

/** `reading_failed`: a read of a conversation that failed; the next read follows the cadence or `retry_after_ms`. */
export interface ReadingFailed {
  readonly conversation: string
  readonly server: string
  readonly tool: string
  readonly because: ReadingFailure
  readonly detail: string
  readonly retry_after_ms?: number
}

/** Why an attempt failed; another attempt may follow (function-formats.md §3.7, ADR 0192). */
export type DeliveryFailure = "tool_error" | "server_failure" | "timed_out" | "tool_not_offered" | "lost" | "too_large"

/**
 * `delivery_failed`: the attempt failed. `retry_after_ms` when the server asked for a delay; `next_attempt_at`
 * when another attempt follows, absent when the attempts are spent (ADR 0192).
 */
export interface DeliveryFailed extends AttemptResult {
  readonly number: number
  readonly because: DeliveryFailure
  readonly detail: string
  readonly retry_after_ms?: number
  readonly next_attempt_at?: string
}

/** What made a delivery refused, beside its `because`: what no later attempt can change (ADR 0192). */
export type RefusalReason =
  | "arguments_refused"
  | "arguments_unrenderable"
  | "tool_server_not_configured"
  | "tool_not_allowed"
  | "tool_server_unknown"

/** `delivery_refused`: the request cannot be delivered through its tool, and no attempt follows. */
export interface DeliveryRefused extends AttemptResult {
  readonly number: number
  readonly because: "unworkable" | "too_large"
  readonly reason?: RefusalReason
  readonly detail: string
}

/** The facts that end a delivery attempt. */
export const attemptEndingTypes = ["delivery_succeeded", "delivery_failed", "delivery_refused"] as const

/** The facts of a waiting interaction run beside the common run facts. */
export const interactionFactTypes = [
  "interaction_requested",
  "run_deferred",
  "request_answered",
  "delivery_started",
  ...attemptEndingTypes,
  "reply_refused"
] as const

/** The facts that end a run. */
export const runEndingTypes = ["run_succeeded", "run_rejected", "run_failed"] as const

/** Whether a run ending closes a request: the host records the request as the record of every ending it makes. */
export const closesRequest = (data: unknown): boolean =>
  typeof (data as { record?: { requested_at?: unknown } } | null)?.record?.requested_at === "string"
