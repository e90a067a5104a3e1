import type { Fact } from "../domain/Fact.js"
import type { Projection } from "../ports/Views.js"
import { conversationStream } from "./conversationKey.js"
import type { DeliverySucceeded } from "./interactionFacts.js"
import { runEndingTypes } from "./interactionFacts.js"
import { runAddressOf } from "./runAddress.js"

/**
 * The view of open requests whose replies are read (ADR 0195): partition `open`, one document per request, sorted
 * by its conversation's stream and then by when it was delivered, so one conversation's requests are a range,
 * oldest first.
 */
export const replyRequestsView = "reply_requests"

/** The one partition of open requests whose replies are read. */
export const replyRequestsPartition = "open"

/** One open request whose replies are read: its run's stream, its conversation (key and stream) and its server. */
export interface ReplyRequest {
  readonly stream: string
  readonly conversation: string
  readonly conversation_stream: string
  readonly delivered_at: string
}

/** The sort of a conversation's requests: its stream, a separator no stream holds, then the time. */
export const replyRequestSort = (conversationStreamName: string, at: string): string =>
  `${conversationStreamName} ${at}`

/** Whether a run fact may open or close a request whose replies are read. */
const mayMove = (fact: Fact): boolean =>
  fact.metadata.definition?.type === "interaction" &&
  (fact.type !== "delivery_succeeded" || (fact.data as DeliverySucceeded).replies_in !== undefined)

/**
 * Folds requests whose replies are read (function-formats.md §3.3: "reply reading is driven by read-model rows
 * written in the same transaction as the facts"): a delivery that succeeded with `replies_in` opens the request in
 * its conversation; an answer, a cancel asked or the run's end closes it.
 */
export const replyRequestsProjection: Projection = {
  view: replyRequestsView,
  types: ["delivery_succeeded", "request_answered", "run_cancel_requested", ...runEndingTypes],
  keys: (fact) => {
    const address = runAddressOf(fact.metadata.stream)
    return address === undefined || !mayMove(fact)
      ? []
      : [{ view: replyRequestsView, partition: replyRequestsPartition, id: fact.metadata.stream }]
  },
  apply: (_current, fact, key) => {
    if (fact.type !== "delivery_succeeded") return undefined
    const address = runAddressOf(key.id)!
    const conversation = (fact.data as DeliverySucceeded).replies_in!
    const stream = conversationStream(address.org, address.playbook, conversation)
    const request: ReplyRequest = {
      stream: key.id,
      conversation,
      conversation_stream: stream,
      delivered_at: fact.metadata.at
    }
    return { id: key.id, sort: replyRequestSort(stream, fact.metadata.at), data: request }
  }
}
