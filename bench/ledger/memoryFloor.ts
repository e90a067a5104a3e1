import type { NewFact } from "@runledger/core"
import { Effect } from "effect"
import type { Contender } from "./contender.js"

/**
 * The memory floor: the same facts pushed as they are into a plain array and a Map by id, with a Map of stream
 * versions to check the expected version: no Effect per append, no copy to place a fact, no projections;
 * reads wrap each fact with its position, page by page.
 */
export const memoryFloor = (): Contender => {
  const facts: Array<NewFact> = []
  const versions = new Map<string, number>()
  const byId = new Map<string, NewFact>()
  return {
    append: (workload) =>
      Effect.sync(() => {
        for (const { stream, expected, facts: batch } of workload.appends) {
          const version = versions.get(stream) ?? 0
          if (expected !== "any" && expected !== version) throw new Error(`floor: ${stream} is at ${version}`)
          for (const fact of batch) {
            facts.push(fact)
            byId.set(fact.id, fact)
          }
          versions.set(stream, version + batch.length)
        }
      }),
    readAll: (pageSize) =>
      Effect.sync(() => {
        let count = 0
        for (let from = 0; from < facts.length; from += pageSize) {
          const page: Array<{ fact: NewFact; position: string }> = []
          for (let index = from; index < Math.min(facts.length, from + pageSize); index++)
            page.push({ fact: facts[index]!, position: String(index + 1) })
          count += page.length
        }
        return count
      })
  }
}
