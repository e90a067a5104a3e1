import type { DefinitionType } from "../definitions/DefinitionType.js"
import type { Projection } from "../ports/Views.js"
import type { Interaction } from "./Interaction.js"
import {
  attemptEndingTypes,
  type DeliveryFailed,
  type DeliveryStarted,
  type DeliverySucceeded,
  type InteractionRequested,
  type RunDeferred,
  runEndingTypes
} from "./interactionFacts.js"
import { runAddressOf } from "./runAddress.js"

/** The view of a playbook's open requests: partition `<org>/<playbook>`, one document per run, by request time. */
export const interactionsView = "interactions"

/** The partition of a playbook's open requests. */
export const interactionsPartition = (org: string, playbook: string): string => `${org}/${playbook}`

/** How a request stands after a delivery fact: the attempt going on, delivered, retrying, or undelivered. */
const standingAfter = (type: string, data: unknown): Interaction["standing"] => {
  switch (type) {
    case "delivery_started":
      return "delivering"
    case "delivery_succeeded":
      return "delivered"
    case "delivery_failed":
      return (data as DeliveryFailed).next_attempt_at === undefined ? "undelivered" : "retrying"
    default:
      return "undelivered"
  }
}

/**
 * Folds requests into the `interactions` view: `interaction_requested` opens one, held for an agent or to
 * deliver; `run_deferred` adds the message and answer schema it recorded; each delivery fact sets its standing
 * and `delivery_started` its count of attempts (ADR 0192); a cancel makes it `cancelling`, which no delivery fact
 * changes; an answer or the run's end removes it.
 */
export const interactionsProjection: Projection = {
  view: interactionsView,
  types: [
    "interaction_requested",
    "run_deferred",
    "delivery_started",
    ...attemptEndingTypes,
    "run_cancel_requested",
    "request_answered",
    "reply_refused",
    ...runEndingTypes
  ],
  keys: (fact) => {
    const address = runAddressOf(fact.metadata.stream)
    return address === undefined
      ? []
      : [{ view: interactionsView, partition: interactionsPartition(address.org, address.playbook), id: address.runId }]
  },
  apply: (current, fact, key) => {
    const request = current?.data as Interaction | undefined
    switch (fact.type) {
      case "interaction_requested": {
        const data = fact.data as InteractionRequested
        const definition = fact.metadata.definition!
        const listed: Interaction = {
          run_id: key.id,
          type: definition.type as DefinitionType,
          function: definition.name,
          version: definition.version ?? 1,
          to: data.to,
          delivery: data.delivery === "agent" ? null : data.delivery,
          message: "",
          takes_answer: data.takes_answer,
          answer_schema: null,
          requested_at: fact.metadata.at,
          expires_at: data.expires_at,
          attempts: 0,
          conversation: null,
          answerer: data.answerer ?? null,
          reply_refusals: 0,
          standing:
            request?.standing === "cancelling"
              ? "cancelling"
              : data.delivery === "agent"
                ? "held_for_an_agent"
                : "to_deliver"
        }
        return { id: key.id, sort: listed.requested_at, data: listed }
      }
      case "run_deferred": {
        if (current === undefined || request === undefined) return undefined
        const { record } = fact.data as RunDeferred
        return {
          ...current,
          sort: record.requested_at,
          data: {
            ...request,
            message: record.message,
            answer_schema: record.answer_schema,
            requested_at: record.requested_at
          }
        }
      }
      case "delivery_started":
      case "delivery_succeeded":
      case "delivery_failed":
      case "delivery_refused": {
        if (current === undefined || request === undefined) return undefined
        const attempts = fact.type === "delivery_started" ? (fact.data as DeliveryStarted).number : request.attempts
        const standing = request.standing === "cancelling" ? "cancelling" : standingAfter(fact.type, fact.data)
        const conversation =
          fact.type === "delivery_succeeded"
            ? ((fact.data as DeliverySucceeded).replies_in ?? request.conversation)
            : request.conversation
        return { ...current, data: { ...request, attempts, standing, conversation } }
      }
      case "reply_refused":
        return current === undefined || request === undefined
          ? undefined
          : { ...current, data: { ...request, reply_refusals: request.reply_refusals + 1 } }
      case "run_cancel_requested":
        return current === undefined || request === undefined
          ? undefined
          : { ...current, data: { ...request, standing: "cancelling" } }
      default:
        return undefined
    }
  }
}
