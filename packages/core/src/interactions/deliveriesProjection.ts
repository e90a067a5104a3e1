import type { Fact } from "../domain/Fact.js"
import type { Projection } from "../ports/Views.js"
import type { DeliveryFailed, DeliveryStarted, InteractionRequested } from "./interactionFacts.js"
import { attemptEndingTypes, runEndingTypes } from "./interactionFacts.js"
import { runAddressOf } from "./runAddress.js"

/** The view of due deliveries: partition `due`, one document per request sent through a tool, by when it is due. */
export const deliveriesView = "deliveries"

/** The one partition of due deliveries: the delivery host reads it in due order. */
export const deliveriesPartition = "due"

/** Whether a run fact may change a due delivery: one of an interaction run, and no request held for an agent. */
const mayMoveDelivery = (fact: Fact): boolean => {
  if (fact.metadata.definition?.type !== "interaction") return false
  if (fact.type === "interaction_requested") return (fact.data as InteractionRequested).delivery !== "agent"
  if (!(runEndingTypes as ReadonlyArray<string>).includes(fact.type)) return true
  const deliver = (fact.data as { record?: { deliver?: unknown } } | null)?.record?.deliver
  return typeof deliver === "object" && deliver !== null
}

/**
 * Folds requests sent through a tool into due deliveries (ADR 0192), all from the facts' own times:
 * `interaction_requested` makes the first attempt due at once; `delivery_started` makes the attempt due to count
 * as lost at its `lost_at`; `delivery_failed` makes the next attempt due at its `next_attempt_at`, or removes the
 * document when the attempts are spent; a delivery that succeeded or was refused, an answer, a cancel or the
 * run's end removes it.
 */
export const deliveriesProjection: Projection = {
  view: deliveriesView,
  types: [
    "interaction_requested",
    "delivery_started",
    ...attemptEndingTypes,
    "request_answered",
    "run_cancel_requested",
    ...runEndingTypes
  ],
  keys: (fact) =>
    runAddressOf(fact.metadata.stream) === undefined || !mayMoveDelivery(fact)
      ? []
      : [{ view: deliveriesView, partition: deliveriesPartition, id: fact.metadata.stream }],
  apply: (current, fact, key) => {
    const due = (at: string) => ({ id: key.id, sort: at, data: { stream: key.id, due_at: at } })
    switch (fact.type) {
      case "interaction_requested":
        return due(fact.metadata.at)
      case "delivery_started":
        return current === undefined ? undefined : due((fact.data as DeliveryStarted).lost_at)
      case "delivery_failed": {
        const next = (fact.data as DeliveryFailed).next_attempt_at
        return current === undefined || next === undefined ? undefined : due(next)
      }
      default:
        return undefined
    }
  }
}
