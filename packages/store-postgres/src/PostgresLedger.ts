import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import { ContentStore, Ledger, Projections, StoreUnavailable, Views } from "@runledger/core"
import { type ConfigError, Context, Effect, Layer, Option, Redacted } from "effect"
import { appendFacts } from "./appendFacts.js"
import { type FactRow, factColumns, toFact, toPositionedFact } from "./factRows.js"
import { migrate } from "./migrations.js"
import { makeContentStore } from "./PostgresContentStore.js"
import { type PostgresLedgerOptions, resolveSchema } from "./PostgresLedgerOptions.js"
import { makeViews } from "./PostgresViews.js"
import { readAll } from "./readAll.js"
import { makeTables } from "./Tables.js"
import { unavailable } from "./unavailable.js"
import { makeWakeups } from "./Wakeups.js"

export type { PostgresLedgerOptions } from "./PostgresLedgerOptions.js"

/**
 * The ledger, the views and the content store on PostgreSQL, for many instances on one database. Building the layer opens a pool,
 * migrates the schema and starts listening for other instances' appends; it fails with `StoreUnavailable` when the
 * database cannot be reached or migrated, and with a `ConfigError` for a bad schema name.
 */
export const layer = (
  options: PostgresLedgerOptions
): Layer.Layer<Ledger | Views | ContentStore, StoreUnavailable | ConfigError.ConfigError, Projections> =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const schema = yield* resolveSchema(options)
      const projections = yield* Projections
      const sql = yield* PgClient.make({
        url: Redacted.make(options.url),
        maxConnections: options.maxConnections ?? 10,
        applicationName: "runledger"
      }).pipe(Effect.provide(Reactivity.layer), unavailable("connecting"))
      const tables = makeTables(sql, schema)
      yield* migrate(sql, tables).pipe(
        Effect.catchTag("MigrationError", (error) =>
          Effect.fail(new StoreUnavailable({ detail: `Migrating ${schema} failed: ${error.message}`, cause: error }))
        ),
        unavailable("migrating")
      )
      const wakeups = yield* makeWakeups(sql, schema)
      const append = yield* appendFacts({ sql, tables, projections, wakeups })

      const ledger = Ledger.of({
        append,
        readStream: (stream, readOptions) =>
          sql<FactRow>`SELECT ${factColumns(sql)} FROM ${tables.facts}
            WHERE stream = ${stream} AND position >= ${Math.max(1, readOptions?.from ?? 1)}
            ORDER BY position
            LIMIT ${readOptions?.limit === undefined ? null : Math.max(0, Math.floor(readOptions.limit))}`.pipe(
            Effect.map((rows) => rows.map(toFact)),
            unavailable("reading a stream")
          ),
        streamVersion: (stream) =>
          sql<{ version: number }>`SELECT coalesce(max(position), 0) AS version FROM ${tables.facts}
            WHERE stream = ${stream}`.pipe(
            Effect.map((rows) => rows[0].version),
            unavailable("reading a stream's version")
          ),
        readAll: (read) => readAll(sql, tables, read).pipe(unavailable("reading the global order")),
        readFact: (id) =>
          sql<FactRow>`SELECT ${factColumns(sql)} FROM ${tables.facts} WHERE id = ${id}`.pipe(
            Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toPositionedFact)),
            unavailable("reading a fact")
          ),
        wakeups: wakeups.subscribe
      })

      return Context.make(Ledger, ledger).pipe(
        Context.add(Views, makeViews(sql, tables, projections)),
        Context.add(ContentStore, makeContentStore(sql, tables))
      )
    })
  )
