import type { Projection } from "../ports/Views.js"

/** The view the conformance suite's projection writes. */
export const counterView = "conformance_counters"

/**
 * A projection for the conformance suite: counts the facts of type `counted` per stream, in a partition named by
 * the fact's `data.partition`, sorted by the count padded to 8 digits; `uncounted` deletes the document.
 */
export const counterProjection: Projection = {
  view: counterView,
  types: ["counted", "uncounted"],
  keys: (fact) => {
    const data = fact.data as { partition: string }
    return [{ view: counterView, partition: data.partition, id: fact.metadata.stream }]
  },
  apply: (current, fact, key) => {
    if (fact.type === "uncounted") return undefined
    const count = ((current?.data as { count?: number } | undefined)?.count ?? 0) + 1
    return { id: key.id, sort: String(count).padStart(8, "0"), data: { count, last: fact.id } }
  }
}
