import { randomBytes } from "node:crypto"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Context, Effect, Layer, Redacted } from "effect"

/** A database of the benchmark's own on the server of DATABASE_URL, so its commit counters count only this run. */
export interface BenchDatabase {
  /** Its name, `bench_wf_<hex>`. */
  readonly name: string
  /** DATABASE_URL with the database replaced by this one. */
  readonly url: string
  /** `pg_stat_database.xact_commit` of this database, read from the server's `postgres` database. */
  readonly commits: () => Promise<number>
  /** Drops the database (closing whatever is still connected to it). */
  readonly drop: () => Promise<void>
}

/** `url` with its database replaced by `database`. */
const onDatabase = (url: string, database: string): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/** Runs one statement on `url` with a short-lived client of the driver the stores use. */
const onServer = <A>(url: string, statement: (sql: PgClient.PgClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })), (context) =>
        statement(Context.get(context, PgClient.PgClient))
      )
    )
  )

/** Creates a fresh database on the server of `url`. */
export const createBenchDatabase = async (url: string): Promise<BenchDatabase> => {
  const name = `bench_wf_${randomBytes(6).toString("hex")}`
  await onServer(url, (sql) => sql`CREATE DATABASE ${sql(name)}`)
  const admin = onDatabase(url, "postgres")
  return {
    name,
    url: onDatabase(url, name),
    commits: () =>
      onServer(admin, (sql) =>
        Effect.gen(function* () {
          yield* sql`SELECT pg_stat_clear_snapshot()`
          const rows = yield* sql<{ commits: string }>`
            SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = ${name}`
          return Number(rows[0]?.commits ?? Number.NaN)
        })
      ),
    drop: () => onServer(admin, (sql) => Effect.asVoid(sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`))
  }
}
