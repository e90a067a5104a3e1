import { type Fact, type GlobalFilter, streamOwner } from "@runledger/core"

/** Appends a fact to the list under `key`, creating the list. */
const push = (lists: Map<string, Array<Fact>>, key: string, fact: Fact): void => {
  const list = lists.get(key)
  if (list === undefined) lists.set(key, [fact])
  else list.push(fact)
}

/**
 * The global order's indexes in memory (ADR 0012): the facts of each owner (`streamOwner` of their stream) and of
 * each chain (`correlation_id`), each list in global order, so a read filtered by either walks only those facts.
 */
export class FactIndexes {
  readonly #owners = new Map<string, Array<Fact>>()
  readonly #chains = new Map<string, Array<Fact>>()

  /** Indexes a fact the ledger has just placed (after every fact before it in the global order). */
  add(fact: Fact): void {
    const owner = streamOwner(fact.metadata.stream)
    if (owner !== undefined) push(this.#owners, owner, fact)
    const chain = fact.metadata.correlation_id
    if (chain !== null) push(this.#chains, chain, fact)
  }

  /**
   * The facts a read with this filter walks, in global order: its chain's when it names one (the narrower), else its
   * prefix owner's; undefined when neither narrows it (the read walks the whole global order).
   */
  walkOf(filter: GlobalFilter | undefined): ReadonlyArray<Fact> | undefined {
    if (filter?.correlationId !== undefined) return this.#chains.get(filter.correlationId) ?? []
    const owner = filter?.streamPrefix === undefined ? undefined : streamOwner(filter.streamPrefix)
    return owner === undefined ? undefined : (this.#owners.get(owner) ?? [])
  }
}

/** The index of the first fact in `facts` (in global order) whose global position is above `position`. */
export const firstAbove = (facts: ReadonlyArray<Fact>, position: number): number => {
  let low = 0
  let high = facts.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if (facts[middle].metadata.global_position <= position) low = middle + 1
    else high = middle
  }
  return low
}
