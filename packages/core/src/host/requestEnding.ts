import type { RequestState } from "../interactions/foldRequest.js"
import type { RequestAnswered } from "../interactions/interactionFacts.js"
import type { DraftFact } from "../ledger/decide.js"

/** The metadata of a request's run ending: its run, definition, chain and call, and what caused it. */
export const endingMetadata = (run: NonNullable<RequestState["run"]>, causation: string | undefined) => ({
  run_id: run.run_id,
  definition: { type: run.type, name: run.name, version: run.definition_version },
  correlation_id: run.run_id,
  first_started_at: run.started_at,
  ...(run.called_by === undefined ? {} : { called_by: run.called_by }),
  ...(causation === undefined ? {} : { causation_id: causation })
})

/**
 * How a waiting request's run ends at `now`, if it does (function-formats.md §3.8): answered → `run_succeeded`
 * with the answer as output; a cancel asked → `run_rejected`, `cancelled`/`requested`, the cancel's reason as
 * detail (or who asked); past `expires_at` → `run_rejected`, `unanswered`/`expired`. The record is the request.
 */
export const requestEnding = (state: RequestState, now: number): DraftFact | undefined => {
  const { run, requested, record, answer, cancel } = state
  if (run === undefined || run.status !== "started" || requested === undefined || record === undefined) return undefined
  const metadata = endingMetadata(run, answer?.id)
  if (answer !== undefined)
    return { type: "run_succeeded", data: { output: (answer.data as RequestAnswered).answer, record }, metadata }
  if (cancel !== undefined)
    return {
      type: "run_rejected",
      data: {
        reason: "cancelled",
        kind: cancel.kind,
        detail: cancel.reason ?? `The run was cancelled at the request of ${cancel.by}.`,
        record
      },
      metadata
    }
  if (now >= Date.parse(requested.expires_at))
    return {
      type: "run_rejected",
      data: {
        reason: "unanswered",
        kind: "expired",
        detail: `Nobody answered the request to ${requested.to} before it expired at ${requested.expires_at}.`,
        record
      },
      metadata
    }
  return undefined
}
