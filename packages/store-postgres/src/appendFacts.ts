import { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg/PgClient"
import {
  type AppendResult,
  type Fact,
  type NewFact,
  type Projection,
  type StoreUnavailable,
  type StreamAppend,
  VersionConflict
} from "@runledger/core"
import { Effect } from "effect"
import { LockNamespace, lockKeys } from "./advisoryLocks.js"
import { projectFacts, viewKeysOf } from "./projectFacts.js"
import type { Tables } from "./Tables.js"
import { unavailable } from "./unavailable.js"
import type { Wakeups } from "./Wakeups.js"

/** What an append needs: the client, the tables, the inline projections and the wake-ups. */
export interface AppendContext {
  readonly sql: PgClient
  readonly tables: Tables
  readonly projections: ReadonlyArray<Projection>
  readonly wakeups: Wakeups
}

/** A fact as written, placed in its stream, and the append it came with. */
interface Placed {
  readonly written: NewFact
  readonly fact: Fact
  readonly append: StreamAppend
}

const isUniqueViolation = (error: unknown): error is SqlError =>
  error instanceof SqlError && (error.cause as { code?: unknown } | undefined)?.code === "23505"

/**
 * Appends in one transaction. Before its first write it takes advisory locks on its streams and then on the view
 * documents its facts change, so appends to one stream or one document run one after the other and get
 * transaction ids (the first half of the global order) in that order. It reads the streams' versions, refuses a
 * mismatch, inserts the facts (a fact id the ledger holds is refused; the unique `(stream, position)` constraint
 * backs the locks), folds them into the views, and queues the NOTIFY. Subscribers of this instance are woken
 * after the commit.
 */
export const appendFacts =
  ({ sql, tables, projections, wakeups }: AppendContext) =>
  (appends: ReadonlyArray<StreamAppend>): Effect.Effect<AppendResult, VersionConflict | StoreUnavailable> => {
    const streams = [...new Set(appends.map((entry) => entry.stream))]
    const lockName = (key: string) => JSON.stringify([tables.schema, key])

    const transaction = Effect.gen(function* () {
      yield* lockKeys(sql, LockNamespace.stream, streams.map(lockName))
      const rows = yield* sql<{ stream: string; version: number }>`SELECT stream, max(position) AS version
        FROM ${tables.facts} WHERE stream = ANY(${streams}::text[]) GROUP BY stream`
      const actual = new Map(streams.map((stream) => [stream, 0]))
      for (const row of rows) actual.set(row.stream, row.version)
      const conflict = (append: StreamAppend) =>
        new VersionConflict({
          stream: append.stream,
          expected: append.expected,
          actual: actual.get(append.stream) ?? 0
        })
      for (const append of appends)
        if (append.expected !== "any" && append.expected !== actual.get(append.stream)) return yield* conflict(append)

      const versions = new Map(actual)
      const placed: Array<Placed> = []
      for (const append of appends)
        for (const fact of append.facts) {
          const position = (versions.get(append.stream) ?? 0) + 1
          versions.set(append.stream, position)
          placed.push({
            append,
            written: fact,
            fact: { ...fact, metadata: { ...fact.metadata, stream: append.stream, position, global_position: 0 } }
          })
        }
      // The global positions are known only after the insert: the documents are locked from the facts without them
      // (0), and any further document the placed facts change is locked after the insert.
      const locked = new Set(
        viewKeysOf(
          projections,
          placed.map((entry) => entry.fact)
        ).keys()
      )
      yield* lockKeys(sql, LockNamespace.viewDoc, [...locked].map(lockName))

      const inserted = yield* sql<{ id: string; global_position: string }>`INSERT INTO ${tables.facts}
          (id, type, stream, position, data, metadata)
        SELECT r->>'id', r->>'type', r->>'stream', (r->>'position')::integer, coalesce(r->'data', 'null'::jsonb),
          r->'metadata'
        FROM jsonb_array_elements(${JSON.stringify(
          placed.map(({ written, fact }) => ({
            id: written.id,
            type: written.type,
            stream: fact.metadata.stream,
            position: fact.metadata.position,
            data: written.data,
            metadata: written.metadata
          }))
        )}::jsonb) WITH ORDINALITY AS rows(r, n)
        ORDER BY n
        ON CONFLICT (id) DO NOTHING
        RETURNING id, global_position::text AS global_position`.pipe(
        // Only a writer that bypassed the stream locks can break (stream, position).
        Effect.catchIf(isUniqueViolation, () => Effect.fail(conflict(appends[0])))
      )
      const globalPositions = new Map(inserted.map((row) => [row.id, Number(row.global_position)]))
      const ids = new Set<string>()
      const taken = placed.find(({ fact }) => {
        const refused = ids.has(fact.id) || !globalPositions.has(fact.id)
        ids.add(fact.id)
        return refused
      })
      if (taken !== undefined) return yield* conflict(taken.append)

      const facts = placed.map(({ fact }) => ({
        ...fact,
        metadata: { ...fact.metadata, global_position: globalPositions.get(fact.id) ?? 0 }
      }))
      const unlocked = [...viewKeysOf(projections, facts).keys()].filter((key) => !locked.has(key))
      yield* lockKeys(sql, LockNamespace.viewDoc, unlocked.map(lockName))
      yield* projectFacts(sql, tables, projections, facts)
      yield* wakeups.notify(streams)
      return { versions, facts } satisfies AppendResult
    })

    return sql.withTransaction(transaction).pipe(
      Effect.tap(() => wakeups.publish(appends.map((entry) => entry.stream))),
      unavailable("appending facts")
    )
  }
