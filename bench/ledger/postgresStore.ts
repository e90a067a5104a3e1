import { randomBytes } from "node:crypto"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Ledger } from "@runledger/core"
import type * as StorePostgres from "@runledger/store-postgres"
import { Context, Effect, Layer, Redacted, type Scope } from "effect"
import { postgresBaseline } from "./baseline.js"
import { ledgerContender } from "./ledgerContender.js"
import type { Pair } from "./repetitions.js"

/** The store's layer with the core's projections, as @runledger/store-postgres exports it. */
export type StoreLayer = typeof StorePostgres.layer

/** The Postgres store, or why it cannot be benchmarked. */
export type PostgresStore =
  | { readonly available: true; readonly layer: StoreLayer }
  | { readonly available: false; readonly reason: string }

/**
 * Loads @runledger/store-postgres (its build) at run time, so that the memory figures do not depend on it: a
 * missing or broken build becomes a reason printed beside the table.
 */
export const loadPostgresStore = async (): Promise<PostgresStore> => {
  try {
    const module = await import("@runledger/store-postgres")
    if (typeof module.layer !== "function")
      return { available: false, reason: "@runledger/store-postgres does not export layer(options)" }
    return { available: true, layer: module.layer }
  } catch (error) {
    return { available: false, reason: `@runledger/store-postgres cannot be loaded: ${String(error)}` }
  }
}

/** The pool size of the store (its default) and of the baseline. */
export const maxConnections = 10

/** The driver settings the baseline shares with the store. */
export const clientLayer = (url: string) => PgClient.layer({ url: Redacted.make(url), maxConnections })

/**
 * A fresh Postgres ledger in a random schema beside a fresh baseline table in another random schema, on a new
 * pool each; both schemas are dropped when the scope closes.
 */
export const openPostgres = (store: StoreLayer, url: string): Effect.Effect<Pair, unknown, Scope.Scope> =>
  Effect.gen(function* () {
    const name = `bench_${randomBytes(6).toString("hex")}`
    const floorSchema = `${name}_floor`
    const sql = Context.get(yield* Layer.build(clientLayer(url)), PgClient.PgClient)
    yield* Effect.addFinalizer(() =>
      Effect.ignore(sql`DROP SCHEMA IF EXISTS ${sql(name)}, ${sql(floorSchema)} CASCADE`)
    )
    yield* sql`CREATE SCHEMA ${sql(floorSchema)}`
    const baseline = yield* postgresBaseline(sql, floorSchema)
    const ledger = Context.get(yield* Layer.build(store({ url, schema: name, maxConnections })), Ledger)
    return { ledger: ledgerContender(ledger), baseline }
  })
