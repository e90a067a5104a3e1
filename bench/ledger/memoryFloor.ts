import type { Fact } from "@runledger/core"
import { Effect } from "effect"
import type { Contender } from "./contender.js"

/**
 * The memory floor: the same facts placed (stream, position, global position) and pushed into a plain array,
 * a Map of stream versions and a Map by id, the expected version checked; no Effect per append, no projections.
 */
export const memoryFloor = (): Contender => {
  const facts: Array<Fact> = []
  const versions = new Map<string, number>()
  const byId = new Map<string, Fact>()
  return {
    append: (workload) =>
      Effect.sync(() => {
        for (const { stream, expected, facts: batch } of workload.appends) {
          let version = versions.get(stream) ?? 0
          if (expected !== "any" && expected !== version) throw new Error(`floor: ${stream} is at ${version}`)
          for (const fact of batch) {
            version += 1
            const placed = { ...fact, metadata: { ...fact.metadata, stream, position: version, global_position: facts.length + 1 } }
            facts.push(placed)
            byId.set(placed.id, placed)
          }
          versions.set(stream, version)
        }
      }),
    readAll: (pageSize) =>
      Effect.sync(() => {
        let count = 0
        for (let from = 0; from < facts.length; from += pageSize) count += facts.slice(from, from + pageSize).length
        return count
      })
  }
}
