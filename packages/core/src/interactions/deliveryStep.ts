import type { NewFactMetadata } from "../domain/Fact.js"
import type { DeliverTool } from "../formats/interaction/readInteraction.js"
import type { DraftFact } from "../ledger/decide.js"
import { repliesIn } from "./conversationKey.js"
import type { DeliverySettingsShape } from "./DeliverySettings.js"
import type { DeliveryAttempt, RequestState } from "./foldRequest.js"
import type { DeliveryFailed, DeliveryRefused, DeliverySucceeded } from "./interactionFacts.js"

/**
 * What a request's delivery needs next, from its run's stream alone (ADR 0192): the attempt `number` to start
 * (caused by `causedBy`); an attempt left open past its `lost_at` to count as failed; or nothing, for a request
 * held for an agent, delivered, refused, spent, answered, cancelled, expired or ended, or one not due yet.
 */
export type DeliveryStep =
  | { readonly _tag: "Attempt"; readonly number: number; readonly causedBy: string; readonly deliver: DeliverTool }
  | { readonly _tag: "Lost"; readonly attempt: DeliveryAttempt }
  | { readonly _tag: "None" }

const none: DeliveryStep = { _tag: "None" }

/** The step of a request's delivery at `now`. */
export const deliveryStep = (state: RequestState, now: number): DeliveryStep => {
  const { run, requested, requestFact, record, answer, cancel } = state
  if (run?.status !== "started" || requested === undefined || requestFact === undefined || record === undefined)
    return none
  if (requested.delivery === "agent" || answer !== undefined || cancel !== undefined) return none
  if (now >= Date.parse(requested.expires_at)) return none
  const deliver = record.deliver as DeliverTool
  const last = state.attempts?.at(-1)
  if (last === undefined) return { _tag: "Attempt", number: 1, causedBy: requestFact.id, deliver }
  if (last.ending === undefined) return now >= Date.parse(last.started.lost_at) ? { _tag: "Lost", attempt: last } : none
  if (last.ending.type !== "delivery_failed" || last.ending.nextAttemptAt === undefined) return none
  return now >= Date.parse(last.ending.nextAttemptAt)
    ? { _tag: "Attempt", number: last.number + 1, causedBy: last.ending.id, deliver }
    : none
}

/**
 * When the attempt after failed attempt `number` starts, or undefined when the attempts are spent: the server's
 * `Retry-After` when it gave one, honoured up to the cap, else the schedule's delay for that attempt (ADR 0192).
 */
export const nextAttemptAt = (
  number: number,
  failedAt: number,
  retryAfterMs: number | undefined,
  settings: DeliverySettingsShape
): string | undefined => {
  if (number >= settings.attempts) return undefined
  const scheduled = settings.delaysMillis[Math.min(number, settings.delaysMillis.length) - 1] ?? 0
  const delay = retryAfterMs === undefined ? scheduled : Math.min(retryAfterMs, settings.retryAfterCapMillis)
  return new Date(failedAt + delay).toISOString()
}

/**
 * The metadata of a fact the runtime records about a request at `now`: the request's own, caused by `causationId`,
 * at the time its decision read, so the times it schedules from are the fact's own.
 */
export const requestMetadata = (state: RequestState, causationId: string, now: number): Partial<NewFactMetadata> => {
  const {
    stream: _stream,
    position: _position,
    global_position: _global,
    at: _at,
    by: _by,
    causation_id: _cause,
    ...carried
  } = state.requestFact!.metadata
  return { ...carried, causation_id: causationId, at: new Date(now).toISOString() }
}

/** How an attempt ended, as its fact's type and data. */
export type AttemptEnding =
  | { readonly type: "delivery_succeeded"; readonly data: DeliverySucceeded }
  | { readonly type: "delivery_failed"; readonly data: DeliveryFailed }
  | { readonly type: "delivery_refused"; readonly data: DeliveryRefused }

/**
 * The facts that record at `now` an attempt's ending caused by `causedBy` (its start), a delivery that succeeded
 * with the conversation key its replies are read under (ADR 0195), and, for a notification whose run
 * still waits with no cancel asked, the run's ending: `run_succeeded` with output `{}` once delivered;
 * `run_rejected`, `unanswered`/`undelivered`, once refused or with its attempts spent (function-formats.md §3.8).
 * A question stays open whatever its deliveries did, until it is answered, cancelled or expires.
 */
export const attemptEndingDrafts = (
  state: RequestState,
  ending: AttemptEnding,
  causedBy: string,
  now: number
): ReadonlyArray<DraftFact> => {
  const endingFact: DraftFact = {
    ...(ending.type === "delivery_succeeded" && state.record !== undefined
      ? { type: ending.type, data: { ...ending.data, ...repliesIn(state.record, ending.data.delivered_as) } }
      : ending),
    metadata: requestMetadata(state, causedBy, now)
  }
  const { run, requested, record, cancel } = state
  if (requested?.takes_answer !== false || run?.status !== "started" || cancel !== undefined) return [endingFact]
  const metadata = requestMetadata(state, causedBy, now)
  if (ending.type === "delivery_succeeded")
    return [endingFact, { type: "run_succeeded", data: { output: {}, record }, metadata }]
  if (ending.type === "delivery_failed" && ending.data.next_attempt_at !== undefined) return [endingFact]
  return [
    endingFact,
    {
      type: "run_rejected",
      data: {
        reason: "unanswered",
        kind: "undelivered",
        detail: `The notification to ${requested.to} could not be delivered: ${ending.data.detail}`,
        record
      },
      metadata
    }
  ]
}
