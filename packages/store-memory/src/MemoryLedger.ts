import {
  type AppendOptions,
  type AppendResult,
  type Fact,
  type GlobalRead,
  InvalidPosition,
  Ledger,
  type PositionedFact,
  Projections,
  projectFact,
  type StreamAppend,
  VersionConflict,
  type ViewDoc,
  type ViewKey,
  Views,
  wakeupFeed,
  wakeupOf
} from "@runledger/core"
import { Effect, Layer, Option } from "effect"
import { DocTable } from "./DocTable.js"
import { FactIndexes, firstAbove } from "./FactIndexes.js"
import { matchesFilter } from "./matchesFilter.js"
import { placeFact } from "./placeFact.js"

/** Everything the memory store holds: facts in global order, streams, ids, owners and chains, and the views. */
interface MemoryState {
  readonly facts: Array<Fact>
  readonly streams: Map<string, Array<Fact>>
  readonly byId: Map<string, Fact>
  readonly indexes: FactIndexes
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
    const feed = yield* wakeupFeed
    const state: MemoryState = {
      facts: [],
      streams: new Map(),
      byId: new Map(),
      indexes: new FactIndexes(),
      views: new DocTable()
    }

    const fold = (table: DocTable, facts: ReadonlyArray<Fact>): void => {
      const read = (key: ViewKey) => table.get(key)
      const write = (key: ViewKey, doc: ViewDoc | undefined) => table.write(key, doc)
      for (const fact of facts) projectFact(projections, fact, read, write)
    }

    const append = (appends: ReadonlyArray<StreamAppend>, options?: AppendOptions) =>
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
            state.indexes.add(full)
          }
          versions.set(stream, placed.length)
        }
        const facts = state.facts.slice(first)
        fold(state.views, facts)
        feed.publish(() => wakeupOf(appends, options))
        return Effect.succeed<AppendResult>({ versions, facts })
      })

    const readAll = (read: GlobalRead) =>
      read.from !== undefined && !/^[1-9]\d{0,15}$/.test(read.from)
        ? Effect.fail(new InvalidPosition({ position: read.from }))
        : Effect.sync(() => {
            const result: Array<PositionedFact> = []
            const facts = state.indexes.walkOf(read.filter) ?? state.facts
            const bound = read.from === undefined ? undefined : Number(read.from)
            const forward = read.direction === "forward"
            let index = forward
              ? firstAbove(facts, bound ?? 0)
              : (bound === undefined ? facts.length : firstAbove(facts, bound - 1)) - 1
            while (result.length < read.limit && index >= 0 && index < facts.length) {
              const fact = facts[index]
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
      wakeups: feed.wakeups
    })

    const views = Views.of({
      get: (key) => Effect.sync(() => Option.fromNullable(state.views.get(key))),
      list: (view, partition, listing) => Effect.sync(() => state.views.list(view, partition, listing)),
      rebuild: Effect.sync(() => {
        const table = new DocTable()
        fold(table, state.facts)
        state.views = table
      })
    })

    return Layer.mergeAll(Layer.succeed(Ledger, ledger), Layer.succeed(Views, views))
  })
)
