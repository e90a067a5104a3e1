import type { AppendResult, Fact, StreamAppend } from "@runledger/core"

/**
 * An append's facts as the ledger places them, in order: each stream's facts after its version, one by one, and
 * the global positions allocated for them (in the same order as `runledger_write` inserts them). The result's
 * versions are the append's streams' new versions.
 */
export const placeFacts = (
  appends: ReadonlyArray<StreamAppend>,
  versions: Readonly<Record<string, number>> | ReadonlyMap<string, number>,
  globalPositions: ReadonlyArray<number>
): AppendResult => {
  const standing: ReadonlyMap<string, number> = versions instanceof Map ? versions : new Map(Object.entries(versions))
  const next = new Map(appends.map(({ stream }) => [stream, standing.get(stream) ?? 0]))
  const facts: Array<Fact> = []
  for (const { stream, facts: written } of appends)
    for (const fact of written) {
      const position = next.get(stream)! + 1
      next.set(stream, position)
      const metadata = Object.assign({}, fact.metadata, {
        stream,
        position,
        global_position: globalPositions[facts.length] ?? 0
      })
      facts.push({ id: fact.id, type: fact.type, data: fact.data, metadata })
    }
  return { versions: next, facts }
}

/** How many facts an append holds. */
export const factCountOf = (appends: ReadonlyArray<StreamAppend>): number =>
  appends.reduce((count, { facts }) => count + facts.length, 0)
