import * as Reactivity from "@effect/experimental/Reactivity"
import type { Connection } from "@effect/sql/SqlConnection"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Lease } from "@runledger/core"
import {
  Clock,
  type ConfigError,
  Data,
  Duration,
  Effect,
  Layer,
  Redacted,
  Schedule,
  type Scope,
  SubscriptionRef
} from "effect"
import { LockNamespace } from "./advisoryLocks.js"
import { type PostgresLedgerOptions, resolveSchema } from "./PostgresLedgerOptions.js"

/** How often an instance that does not hold the lease tries to take it, and how often the holder checks it still does. */
const tryMillis = 1_000

/** How long a statement on the lease's connection may take before the instance gives the lease up and reconnects. */
const statementMillis = 5_000

/**
 * TCP keepalives on the lease's session, so that PostgreSQL ends the session of a holder whose machine vanished
 * (no FIN ever comes) after about 5 + 3 × 2 s, and the lock with it. A holder that merely died is noticed at once.
 */
const keepalives = ["SET tcp_keepalives_idle = 5", "SET tcp_keepalives_interval = 2", "SET tcp_keepalives_count = 3"]

/** A statement on the lease's connection took longer than `statementMillis`. */
class LeaseConnectionSilent extends Data.TaggedError("LeaseConnectionSilent")<{ readonly statement: string }> {}

/**
 * The sweeps lease on PostgreSQL (ADR 0402): a session-level advisory lock, keyed by the store's schema, held on a
 * connection of its own (a pool of one, outside the store's pool). An instance that does not hold it tries
 * `pg_try_advisory_lock` every second; the holder runs `SELECT 1` every second and gives the lease up when that
 * fails or falls silent, closing its connection. A holder that dies ends its session and so frees the lock: another
 * instance takes it within about a second. A holder that stops closes its connection, which frees it as well.
 */
export const makeLease = (
  options: PostgresLedgerOptions,
  schema: string
): Effect.Effect<Lease["Type"], never, Scope.Scope> =>
  Effect.gen(function* () {
    const held = yield* SubscriptionRef.make(false)

    const run = (connection: Connection, statement: string, params: ReadonlyArray<unknown> = []) =>
      connection.execute(statement, params, undefined).pipe(
        Effect.timeoutFail({
          duration: Duration.millis(statementMillis),
          onTimeout: () => new LeaseConnectionSilent({ statement })
        })
      )

    /** Gives the lease up, saying so if this instance held it; runs before the connection closes. */
    const giveUp = Effect.flatMap(SubscriptionRef.getAndSet(held, false), (was) =>
      was ? Effect.logInfo(`RunLedger: this instance gave up the sweeps lease of schema ${schema}`) : Effect.void
    )

    /** One connection's life: takes the lock as soon as it is free, then holds it while the connection answers. */
    const holdOnce = Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* PgClient.make({
          url: Redacted.make(options.url),
          maxConnections: 1,
          applicationName: "runledger-lease"
        }).pipe(Effect.provide(Reactivity.layer))
        const connection = yield* sql.reserve
        yield* Effect.addFinalizer(() => giveUp)
        for (const setting of keepalives) yield* run(connection, setting)
        for (;;) {
          const [row] = yield* run(connection, "SELECT pg_try_advisory_lock($1, hashtext($2)) AS held", [
            LockNamespace.lease,
            schema
          ])
          if (row?.held === true) break
          yield* Effect.sleep(Duration.millis(tryMillis))
        }
        yield* SubscriptionRef.set(held, true)
        yield* Effect.logInfo(`RunLedger: this instance holds the sweeps lease of schema ${schema}`)
        for (;;) {
          yield* Effect.sleep(Duration.millis(tryMillis))
          yield* run(connection, "SELECT 1")
        }
      })
    )

    yield* holdOnce.pipe(
      Effect.tapErrorCause((cause) =>
        Effect.logWarning("RunLedger: the sweeps lease's connection failed; connecting again", cause)
      ),
      Effect.retry(Schedule.exponential("100 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")))),
      // The connection's timing is real time, whatever clock the runtime reads (a test's shifted clock).
      Effect.withClock(Clock.make()),
      Effect.forkScoped
    )
    return { held: held.changes }
  })

/** The sweeps lease of the store's schema as a layer; fails with a `ConfigError` for a bad schema name. */
export const layer = (options: PostgresLedgerOptions): Layer.Layer<Lease, ConfigError.ConfigError> =>
  Layer.scoped(
    Lease,
    Effect.flatMap(resolveSchema(options), (schema) => makeLease(options, schema))
  )
