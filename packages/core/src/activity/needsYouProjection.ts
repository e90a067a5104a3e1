import type { DefinitionType } from "../definitions/DefinitionType.js"
import { jsonBytes } from "../domain/utf8Bytes.js"
import { type InteractionRequested, type RunDeferred, runEndingTypes } from "../interactions/interactionFacts.js"
import { runAddressOf } from "../interactions/runAddress.js"
import type { Projection } from "../ports/Views.js"
import { type ActivityItem, itemOf } from "./ActivityRow.js"
import { firstLine } from "./clip.js"
import { listedDoc } from "./rowDoc.js"
import { waitsOnOf } from "./waitsOn.js"

/** The view of the org's requests that wait on an answer: partition the org, one row per run, by request time. */
export const needsYouView = "activity_needs_you"

/** The most bytes, as JSON, of an answer schema a row carries whole. */
export const answerSchemaBound = 8_192

/** The answer schema a row carries: the request's own where it is at most 8 KiB as JSON, else null. */
const rowSchema = (schema: unknown): unknown =>
  schema === undefined || schema === null || jsonBytes(schema) > answerSchemaBound ? null : schema

/**
 * Folds the requests of interaction runs into `needs_you` rows: `interaction_requested` of one that takes an
 * answer opens a row, `run_deferred` adds its message, answer schema and time; its answer or its run's end closes it.
 */
export const needsYouProjection: Projection = {
  view: needsYouView,
  types: ["interaction_requested", "run_deferred", "request_answered", ...runEndingTypes],
  keys: (fact) => {
    const address = runAddressOf(fact.metadata.stream)
    return address === undefined || fact.metadata.definition?.type !== "interaction"
      ? []
      : [{ view: needsYouView, partition: address.org, id: `${address.playbook}/${address.runId}` }]
  },
  apply: (current, fact, key) => {
    const [playbook, runId] = key.id.split("/")
    if (fact.type === "interaction_requested") {
      const data = fact.data as Partial<InteractionRequested> | null
      const definition = fact.metadata.definition
      if (data?.takes_answer !== true || typeof data.to !== "string" || definition === undefined) return undefined
      return listedDoc(
        itemOf({
          kind: "needs_you",
          address: key.id,
          playbook,
          at: fact.metadata.at,
          definition: {
            type: definition.type as DefinitionType,
            name: definition.name,
            version: definition.version ?? 1
          },
          run_id: runId,
          message: "",
          waits_on: waitsOnOf(data.to),
          expires_at: data.expires_at ?? null
        })
      )
    }
    const record = (fact.data as Partial<RunDeferred> | null)?.record
    if (fact.type === "run_deferred" && current !== undefined && typeof record?.message === "string") {
      const item = current.data as ActivityItem
      return listedDoc({
        ...item,
        at: record.requested_at,
        message: firstLine(record.message),
        answer_schema: rowSchema(record.answer_schema)
      })
    }
    return undefined
  }
}
