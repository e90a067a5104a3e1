import { Context, type Effect, type Option } from "effect"
import type { Fact } from "../domain/Fact.js"
import type { StoreUnavailable } from "./StoreUnavailable.js"

/** One document of a read model: its id within its partition, the key it sorts by, and its JSON data. */
export interface ViewDoc {
  readonly id: string
  readonly sort: string
  readonly data: unknown
}

/** Where a fact's change lands: a view, a partition of it (an org, a playbook) and a document id. */
export interface ViewKey {
  readonly view: string
  readonly partition: string
  readonly id: string
}

/**
 * An inline projection: folds facts into documents of one view, in the same transaction as the append.
 * `apply` gets the document as it stands (or undefined) and returns it changed, or undefined to delete it; `read`
 * gives another document the same fact keys, as it stands in the fold (a store loads only the keyed documents).
 */
export interface Projection {
  readonly view: string
  /** The fact types this projection reads; others are not shown to it. */
  readonly types: ReadonlyArray<string>
  /** The documents the fact changes. */
  readonly keys: (fact: Fact) => ReadonlyArray<ViewKey>
  readonly apply: (
    current: ViewDoc | undefined,
    fact: Fact,
    key: ViewKey,
    read: (key: ViewKey) => ViewDoc | undefined
  ) => ViewDoc | undefined
}

/** Every inline projection the runtime runs; the stores apply them on append and on rebuild. */
export class Projections extends Context.Tag("@runledger/core/Projections")<Projections, ReadonlyArray<Projection>>() {}

/** Pages through a partition of a view in sort order (then id), after an exclusive bound. */
export interface ViewListing {
  readonly direction: "ascending" | "descending"
  readonly after?: { readonly sort: string; readonly id: string }
  readonly limit: number
}

/** The read models, derived from facts by the projections and rebuildable from the ledger. */
export class Views extends Context.Tag("@runledger/core/Views")<
  Views,
  {
    readonly get: (key: ViewKey) => Effect.Effect<Option.Option<ViewDoc>, StoreUnavailable>
    readonly list: (
      view: string,
      partition: string,
      listing: ViewListing
    ) => Effect.Effect<ReadonlyArray<ViewDoc>, StoreUnavailable>
    /** Drops every view and folds the whole ledger through the projections again. */
    readonly rebuild: Effect.Effect<void, StoreUnavailable>
  }
>() {}

/** Each list of projections indexed by the fact types they read, built once per list. */
const byTypeOf = new WeakMap<ReadonlyArray<Projection>, ReadonlyMap<string, ReadonlyArray<Projection>>>()

/** The projections of a list that read facts of `type`, in the list's order. */
export const projectionsOf = (projections: ReadonlyArray<Projection>, type: string): ReadonlyArray<Projection> => {
  let byType = byTypeOf.get(projections)
  if (byType === undefined) {
    const index = new Map<string, Array<Projection>>()
    for (const projection of projections)
      for (const read of new Set(projection.types)) index.set(read, [...(index.get(read) ?? []), projection])
    byType = index
    byTypeOf.set(projections, byType)
  }
  return byType.get(type) ?? []
}

/** Applies the projections to one fact against a document reader/writer: the stores' shared fold. */
export const projectFact = (
  projections: ReadonlyArray<Projection>,
  fact: Fact,
  read: (key: ViewKey) => ViewDoc | undefined,
  write: (key: ViewKey, doc: ViewDoc | undefined) => void
): void => {
  for (const projection of projectionsOf(projections, fact.type))
    for (const key of projection.keys(fact)) write(key, projection.apply(read(key), fact, key, read))
}
