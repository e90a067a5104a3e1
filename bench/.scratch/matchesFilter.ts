import type { Fact, GlobalFilter } from "@runledger/core"

/** Whether a fact passes a global read's filter. */
export const matchesFilter = (fact: Fact, filter: GlobalFilter | undefined): boolean =>
  filter === undefined ||
  ((filter.streamPrefix === undefined || fact.metadata.stream.startsWith(filter.streamPrefix)) &&
    (filter.types === undefined || filter.types.includes(fact.type)) &&
    (filter.correlationId === undefined || fact.metadata.correlation_id === filter.correlationId))
