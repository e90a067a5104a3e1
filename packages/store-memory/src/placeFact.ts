import type { Fact, NewFact } from "@runledger/core"
import type { Types } from "effect"

/**
 * A fact as the ledger placed it: its metadata copied and completed with its stream, position and global
 * position. `Object.assign` then plain assignments: an object spread followed by more keys is ~10× slower in V8.
 */
export const placeFact = (fact: NewFact, stream: string, position: number, globalPosition: number): Fact => {
  const metadata = Object.assign({}, fact.metadata) as Types.Mutable<Fact["metadata"]>
  metadata.stream = stream
  metadata.position = position
  metadata.global_position = globalPosition
  return { id: fact.id, type: fact.type, data: fact.data, metadata }
}
