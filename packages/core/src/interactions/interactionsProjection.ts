import type { DefinitionType } from "../definitions/DefinitionType.js"
import type { Projection } from "../ports/Views.js"
import type { Interaction } from "./Interaction.js"
import { type InteractionRequested, type RunDeferred, runEndingTypes } from "./interactionFacts.js"
import { runAddressOf } from "./runAddress.js"

/** The view of a playbook's open requests: partition `<org>/<playbook>`, one document per run, by request time. */
export const interactionsView = "interactions"

/** The partition of a playbook's open requests. */
export const interactionsPartition = (org: string, playbook: string): string => `${org}/${playbook}`

/**
 * Folds requests into the `interactions` view: `interaction_requested` opens one, `run_deferred` adds the
 * message and answer schema it recorded, a cancel makes it `cancelling`; an answer or the run's end removes it.
 */
export const interactionsProjection: Projection = {
  view: interactionsView,
  types: ["interaction_requested", "run_deferred", "run_cancel_requested", "request_answered", ...runEndingTypes],
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
          standing: request?.standing === "cancelling" ? "cancelling" : "held_for_an_agent"
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
      case "run_cancel_requested":
        return current === undefined || request === undefined
          ? undefined
          : { ...current, data: { ...request, standing: "cancelling" } }
      default:
        return undefined
    }
  }
}
