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

/** Everything the memory store holds: facts in global order, streams, ids, and the views' documents. */
interface MemoryState {
  readonly facts: Array<Fact>
  readonly streams: Map<string, Array<Fact>>
  readonly byId: Map<string, Fact>
  views: DocTable
}

/**
 * The ledger and the views in memory: the embedded default. An append checks every stream's version, places
 * the facts and folds them into the views in one synchronous step, so it is atomic and global order is commit order.
 */
export const layer: Layer.Layer<Ledger | Views, never, Projections> = Layer.unwrapEffect(
  Effect.gen(function* () {
    const projections = yield* Projections
    const pubsub = yield* PubSub.unbounded<LedgerWakeup>()
    const state: MemoryState = { facts: [], streams: new Map(), byId: new Map(), views: new Map() }

    const fold = (table: DocTable, facts: ReadonlyArray<Fact>): void => {
      for (const fact of facts)
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
        for (const { stream, expected } of appends) {
          const actual = state.streams.get(stream)?.length ?? 0
          if (expected !== "any" && expected !== actual)
            return Effect.fail(new VersionConflict({ stream, expected, actual }))
        }
        const ids = new Set<string>()
        for (const { stream, expected, facts } of appends)
          for (const fact of facts) {
            if (state.byId.has(fact.id) || ids.has(fact.id))
              return Effect.fail(
                new VersionConflict({ stream, expected, actual: state.streams.get(stream)?.length ?? 0 })
              )
            ids.add(fact.id)
          }
        const placed: Array<Fact> = []
        const versions = new Map<string, number>()
        for (const { stream, facts } of appends) {
          const existing = state.streams.get(stream) ?? []
          for (const fact of facts) {
            const full: Fact = {
              ...fact,
              metadata: {
                ...fact.metadata,
                stream,
                position: existing.length + 1,
                global_position: state.facts.length + placed.length + 1
              }
            }
            existing.push(full)
            placed.push(full)
          }
          state.streams.set(stream, existing)
          versions.set(stream, existing.length)
        }
        for (const fact of placed) {
          state.facts.push(fact)
          state.byId.set(fact.id, fact)
        }
        fold(state.views, placed)
        const result: AppendResult = { versions, facts: placed }
        return Effect.as(PubSub.publish(pubsub, { streams: appends.map((entry) => entry.stream) }), result)
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
