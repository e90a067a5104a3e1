import { randomBytes } from "node:crypto"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Context, Deferred, Effect, Exit, Fiber, Layer, Scope, Stream } from "effect"
import { clientLayer } from "../ledger/postgresStore.js"

/** The floor of a pick-up across connections: a durable INSERT and a NOTIFY in one transaction, heard by a LISTEN. */
export interface NotifyFloor {
  /** `count` round trips one after the other: milliseconds from sending the statement to the listener hearing it. */
  readonly measure: (count: number) => Promise<ReadonlyArray<number>>
  readonly close: () => Promise<void>
}

/**
 * Opens the floor on a pool like the store's, in a schema of its own (dropped on close): a table with an identity
 * key and a `jsonb` row like a fact's, one connection listening on a channel, and each sample one autocommit
 * statement that inserts a row and notifies its id — one round trip, one durable commit, as the store's append.
 */
export const openNotifyFloor = async (url: string): Promise<NotifyFloor> => {
  const scope = Effect.runSync(Scope.make())
  const schema = `bench_${randomBytes(6).toString("hex")}_notify`
  const channel = `${schema}_wake`
  const sql = await Effect.runPromise(
    Effect.map(Layer.buildWithScope(clientLayer(url), scope), (context) => Context.get(context, PgClient.PgClient))
  )
  await Effect.runPromise(sql`CREATE SCHEMA ${sql(schema)}`)
  await Effect.runPromise(
    sql`CREATE TABLE ${sql(schema)}.facts (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, stream text NOT NULL, data jsonb NOT NULL)`
  )
  const heard = new Map<string, Deferred.Deferred<number>>()
  const listening = await Effect.runPromise(Deferred.make<void>())
  const listener = Effect.runFork(
    Stream.runForEach(sql.listen(channel), (payload) =>
      payload === "ready"
        ? Deferred.succeed(listening, undefined)
        : Effect.suspend(() => {
            const deferred = heard.get(payload)
            return deferred === undefined ? Effect.void : Deferred.succeed(deferred, performance.now())
          })
    )
  )
  // LISTEN is issued when the stream starts: notify until the listener hears one.
  for (;;) {
    await Effect.runPromise(sql`SELECT pg_notify(${channel}, 'ready')`)
    const ready = await Effect.runPromise(Deferred.await(listening).pipe(Effect.timeoutOption("100 millis")))
    if (ready._tag === "Some") break
  }
  const data = JSON.stringify({ answer: { decision: "grant" }, answered_by: { id: "local", name: "local" } })
  return {
    measure: async (count) => {
      const latencies: Array<number> = []
      for (let index = 0; index < count; index++) {
        const key = `${index}-${randomBytes(4).toString("hex")}`
        const deferred = await Effect.runPromise(Deferred.make<number>())
        heard.set(key, deferred)
        const sent = performance.now()
        await Effect.runPromise(
          sql`WITH inserted AS (INSERT INTO ${sql(schema)}.facts (stream, data) VALUES (${key}, ${data}::jsonb) RETURNING stream)
              SELECT pg_notify(${channel}, (SELECT stream FROM inserted))`
        )
        const heardAt = await Effect.runPromise(
          Deferred.await(deferred).pipe(
            Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error(`NOTIFY ${key} was not heard`) })
          )
        )
        latencies.push(heardAt - sent)
        heard.delete(key)
      }
      return latencies
    },
    close: async () => {
      await Effect.runPromise(Fiber.interrupt(listener))
      await Effect.runPromise(Effect.ignore(sql`DROP SCHEMA IF EXISTS ${sql(schema)} CASCADE`))
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
}
