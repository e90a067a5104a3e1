import {
  type AppendResult,
  type Fact,
  type GlobalRead,
  InvalidPosition,
  Ledger,
  type LedgerWakeup,
  type PositionedFact,
  Projections,
  projectFact,
  type StreamAppend,
  VersionConflict,
  type ViewDoc,
  type ViewKey,
  Views
} from "@runledger/core"
import { Effect, Layer, Option, PubSub, Stream } from "effect"
import { type DocTable, docTableKey } from "./DocTable.js"
import { matchesFilter } from "./matchesFilter.js"
import { placeFact } from "./placeFact.js"

/** Everything the memory store holds: facts in global order, streams, ids, and the views' documents. */
interface MemoryState {
  readonly facts: Array<Fact>
  readonly streams: Map<string, Array<Fact>>
  readonly byId: Map<string, Fact>
  views: DocTable
}

/** An append's conflict, with the version its stream is at. */
const conflictOf = (state: MemoryState, { stream, expected }: StreamAppend): VersionConflict =>
  new VersionConflict({ stream, expected, actual: state.streams.get(stream)?.length ?? 0 })

/** The conflict of the first append at the wrong version or with a fact id already taken (or repeated). */
const refusal = (state: MemoryState, appends: ReadonlyArray<StreamAppend>): VersionConflict | undefined => {
  for (const append of appends)
    if (append.expected !== "any" && append.expected !== (state.streams.get(append.stream)?.length ?? 0))
      return conflictOf(state, append)
  const ids = appends.length === 1 && appends[0].facts.length === 1 ? undefined : new Set<string>()
  for (const append of appends)
    for (const { id } of append.facts) {
      if (state.byId.has(id) || ids?.has(id)) return conflictOf(state, append)
      ids?.add(id)
    }
  return undefined
}

/**
 * The ledger and the views in memory: the embedded default. An append checks every stream's version, places
 * the facts and folds them into the views in one synchronous step, so it is atomic and global order is commit order.
 * The wake-ups end with the layer's scope, so a held subscription is answered when the runtime stops.
 */
export const layer: Layer.Layer<Ledger | Views, never, Projections> = Layer.unwrapScoped(
  Effect.gen(function* () {
    const projections = yield* Projections
    const pubsub = yield* Effect.acquireRelease(PubSub.unbounded<LedgerWakeup>(), PubSub.shutdown)
    const state: MemoryState = { facts: [], streams: new Map(), byId: new Map(), views: new Map() }

    const projectedTypes = new Set(projections.flatMap((projection) => projection.types))

    const fold = (table: DocTable, facts: ReadonlyArray<Fact>): void => {
      for (const fact of facts)
        if (projectedTypes.has(fact.type))
          projectFact(
            projections,
            fact,
            (key) => table.get(docTableKey(key)),
            (key: ViewKey, doc: ViewDoc | undefined) => {
              if (doc === undefined) table.delete(docTableKey(key))
              else table.set(docTableKey(key), doc)
            }
          )
    }

    const append = (appends: ReadonlyArray<StreamAppend>) =>
      Effect.suspend(() => {
        const conflict = refusal(state, appends)
        if (conflict !== undefined) return Effect.fail(conflict)
        const first = state.facts.length
        const versions = new Map<string, number>()
        for (const { stream, facts } of appends) {
          let placed = state.streams.get(stream)
          if (placed === undefined) {
            placed = []
            state.streams.set(stream, placed)
          }
          for (const fact of facts) {
            const full = placeFact(fact, stream, placed.length + 1, state.facts.length + 1)
            placed.push(full)
            state.facts.push(full)
            state.byId.set(full.id, full)
          }
          versions.set(stream, placed.length)
        }
        const facts = state.facts.slice(first)
        fold(state.views, facts)
        pubsub.unsafeOffer({ streams: appends.map((entry) => entry.stream) })
        return Effect.succeed<AppendResult>({ versions, facts })
      })

    const readAll = (read: GlobalRead) =>
      read.from !== undefined && !/^[1-9]\d{0,15}$/.test(read.from)
        ? Effect.fail(new InvalidPosition({ position: read.from }))
        : Effect.sync(() => {
            const result: Array<PositionedFact> = []
            const bound = read.from === undefined ? undefined : Number(read.from)
            const forward = read.direction === "forward"
            let index = forward ? (bound ?? 0) : (bound === undefined ? state.facts.length : bound - 1) - 1
            while (result.length < read.limit && index >= 0 && index < state.facts.length) {
              const fact = state.facts[index]
              if (matchesFilter(fact, read.filter))
                result.push({ fact, position: String(fact.metadata.global_position) })
              index += forward ? 1 : -1
            }
            return result as ReadonlyArray<PositionedFact>
          })

    const ledger = Ledger.of({
      append,
      readStream: (stream, options) =>
        Effect.sync(() => {
          const facts = state.streams.get(stream) ?? []
          const from = Math.max(1, options?.from ?? 1) - 1
          return facts.slice(from, options?.limit === undefined ? undefined : from + options.limit)
        }),
      streamVersion: (stream) => Effect.sync(() => state.streams.get(stream)?.length ?? 0),
      readAll,
      readFact: (id) =>
        Effect.sync(() =>
          Option.map(Option.fromNullable(state.byId.get(id)), (fact) => ({
            fact,
            position: String(fact.metadata.global_position)
          }))
        ),
      wakeups: Stream.fromPubSub(pubsub)
    })

    const views = Views.of({
      get: (key) => Effect.sync(() => Option.fromNullable(state.views.get(docTableKey(key)))),
      list: (view, partition, listing) =>
        Effect.sync(() => {
          const prefix = docTableKey({ view, partition, id: "" })
          const docs = [...state.views.entries()].filter(([key]) => key.startsWith(prefix)).map(([, doc]) => doc)
          const sign = listing.direction === "ascending" ? 1 : -1
          const compare = (a: { sort: string; id: string }, b: { sort: string; id: string }) =>
            sign * (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
          const after = listing.after
          return docs
            .filter((doc) => after === undefined || compare(doc, after) > 0)
            .sort(compare)
            .slice(0, listing.limit)
        }),
      rebuild: Effect.sync(() => {
        const table: DocTable = new Map()
        fold(table, state.facts)
        state.views = table
      })
    })

    return Layer.mergeAll(Layer.succeed(Ledger, ledger), Layer.succeed(Views, views))
  })
)
