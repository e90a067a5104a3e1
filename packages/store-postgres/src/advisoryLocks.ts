import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg/PgClient"
import { Effect } from "effect"

/**
 * The first key of the store's transaction-level advisory locks: one namespace per kind of thing locked, so a
 * stream and a view document never share a lock.
 */
export const LockNamespace = {
  migrations: 0x524c0001,
  stream: 0x524c0002,
  viewDoc: 0x524c0003,
  /** The sweeps lease (ADR 0402), a session-level lock keyed by the schema: `PostgresLease.ts`. */
  lease: 0x524c0004
} as const

/**
 * Takes transaction-level advisory locks on keys (hashed to 32 bits) in the order of their hashes, so every
 * transaction locks in the same order and none deadlocks on them. Advisory locks give the transaction no id, so
 * taking them before the first write keeps transaction ids in the order the locks were granted. The migrations
 * lock with it; an append locks the same way on the server, in `runledger_lock` (`appendFunctions.ts`).
 */
export const lockKeys = (
  sql: PgClient,
  namespace: number,
  keys: ReadonlyArray<string>
): Effect.Effect<void, SqlError> =>
  keys.length === 0
    ? Effect.void
    : Effect.asVoid(sql`SELECT pg_advisory_xact_lock(${namespace}::int4, hash) FROM (
        SELECT DISTINCT hashtext(key) AS hash FROM unnest(${keys}::text[]) AS key ORDER BY hash
      ) AS locks`)
