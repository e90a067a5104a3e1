import * as PgClient from "@effect/sql-pg/PgClient"
import type { Lease } from "@runledger/core"
import { PostgresLease } from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Context, Effect, Exit, Fiber, Layer, Option, Redacted, Scope, Stream } from "effect"
import { expect, it } from "vitest"
import { LockNamespace } from "../src/advisoryLocks.js"

/** Whether a lease is held now: the first value of `held` is the current one. */
const holds = (lease: Lease["Type"]) =>
  Effect.map(
    Stream.runHead(lease.held),
    Option.getOrElse(() => false)
  )

/** Polls `check` until it gives a value `done` accepts; fails the test after 30 s of never. */
const eventually = <A>(check: Effect.Effect<A>, done: (value: A) => boolean) =>
  Effect.gen(function* () {
    for (;;) {
      const value = yield* check
      if (done(value)) return value
      yield* Effect.sleep("50 millis")
    }
  }).pipe(Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error("the leases never settled") }))

/** Opens a lease on `schema` in a scope of its own, so the test can close it as an instance stopping would. */
const open = (url: string, schema: string) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const lease = yield* PostgresLease.makeLease({ url, schema }, schema).pipe(Scope.extend(scope))
    return { lease, close: Scope.close(scope, Exit.void) }
  })

postgresSuite("the sweeps lease", "alongside", ({ url, schema }) => {
  it("is held by one instance at a time, and passes on when its holder stops or its session dies", () =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const sql = Context.get(
            yield* Layer.build(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })),
            PgClient.PgClient
          )
          const instances = yield* Effect.all([open(url, schema), open(url, schema), open(url, schema)])
          const holders = Effect.map(
            Effect.forEach(instances, (instance) => holds(instance.lease)),
            (held) => instances.filter((_, index) => held[index])
          )

          const [first] = yield* eventually(holders, (found) => found.length === 1)
          yield* first!.close
          const [second] = yield* eventually(holders, (found) => found.length === 1 && found[0] !== first)
          expect(second).not.toBe(first)

          // The holder's session dies under it (as when its process is killed): the lock is freed at once, another
          // instance takes it, and the old holder sees its connection fail and gives the lease up.
          const gaveUp = yield* second!.lease.held.pipe(
            Stream.filter((held) => !held),
            Stream.runHead,
            Effect.fork
          )
          const ended = yield* sql<{ ended: boolean }>`SELECT pg_terminate_backend(pid) AS ended FROM pg_locks
            WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = ${LockNamespace.lease}
              AND objid::bigint = (hashtext(${schema})::bigint + 4294967296) % 4294967296`
          expect(ended).toEqual([{ ended: true }])
          yield* eventually(
            Effect.map(holders, (found) => found.length === 1 && found[0] !== second),
            (done) => done
          )
          expect(yield* Fiber.join(gaveUp)).toEqual(Option.some(false))

          // A lease of another schema is another lock.
          const elsewhere = yield* open(url, `${schema}_other`)
          yield* eventually(holds(elsewhere.lease), (held) => held)
          expect((yield* holders).length).toBe(1)
        })
      )
    ))
})
