import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

/** Where a Postgres suite runs: the server's URL and a schema of its own. */
export interface TestDatabase {
  readonly url: string
  readonly schema: string
}

/**
 * How a suite shares the server with the other Postgres suites running in parallel. A transaction held open anywhere
 * on the server holds back every reader of the global order, so a suite that does that on purpose runs `alone`; the
 * others run `alongside` each other (a session advisory lock, shared or exclusive, for the suite's duration).
 */
export type Isolation = "alongside" | "alone"

const isolationLock = 0x524c7e57

/**
 * Declares a suite that needs PostgreSQL. With `DATABASE_URL` set it runs `body` against a fresh random schema,
 * dropped afterwards. Without it the suite is skipped with a line saying so, or fails when `CI` is set, since CI
 * must run it.
 */
export const postgresSuite = (name: string, isolation: Isolation, body: (database: TestDatabase) => void): void => {
  const url = process.env.DATABASE_URL
  if (url === undefined || url === "") {
    if (process.env.CI) {
      describe(`Postgres: ${name}`, () => {
        it("runs against the database in DATABASE_URL", () => {
          expect.fail(`CI must run the Postgres suite "${name}", but DATABASE_URL is not set`)
        })
      })
      return
    }
    console.log(`skipped Postgres suite: ${name} (DATABASE_URL is not set)`)
    describe.skip(`Postgres: ${name}`, () => {
      it("runs against the database in DATABASE_URL", () => {})
    })
    return
  }
  const schema = `runledger_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`
  const admin = Layer.scopedDiscard(
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      const connection = yield* sql.reserve
      yield* connection.executeRaw(
        isolation === "alone" ? "SELECT pg_advisory_lock($1)" : "SELECT pg_advisory_lock_shared($1)",
        [isolationLock]
      )
      yield* Effect.addFinalizer(() => Effect.ignore(connection.executeRaw("SELECT pg_advisory_unlock_all()", [])))
    })
  ).pipe(Layer.provideMerge(PgClient.layer({ url: Redacted.make(url), maxConnections: 2 })))
  const runtime = ManagedRuntime.make(admin)
  describe(`Postgres: ${name}`, () => {
    beforeAll(() => runtime.runPromise(Effect.void), 120_000)
    afterAll(async () => {
      await runtime.runPromise(
        Effect.flatMap(PgClient.PgClient, (sql) => sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`)
      )
      await runtime.dispose()
    })
    body({ url, schema })
  })
}
