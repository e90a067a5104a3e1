import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Redacted } from "effect"

/**
 * How many facts a schema's ledger holds, counted in the table: what every committed append left, where a read of
 * the global order shows only the facts below the horizon (ADR 0003), which a transaction of any other test on the
 * server holds back. A test that checks a refusal recorded nothing counts with this.
 */
export const factCount = (url: string, schema: string): Promise<number> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      const [row] = yield* sql<{
        count: number
      }>`SELECT count(*)::int AS count FROM ${sql(`${schema}.runledger_facts`)}`
      return row!.count
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })))
  )
