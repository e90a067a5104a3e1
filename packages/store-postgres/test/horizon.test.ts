import * as PgClient from "@effect/sql-pg/PgClient"
import { Ledger, type PositionedFact } from "@runledger/core"
import { layer } from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Deferred, Effect, Fiber, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { afterAll, expect, it } from "vitest"
import { newFact, testPrefix } from "./facts.js"

postgresSuite("the visibility horizon", "alone", ({ url, schema }) => {
  const runtime = ManagedRuntime.make(
    Layer.merge(layer({ url, schema }), PgClient.layer({ url: Redacted.make(url), maxConnections: 2 }))
  )
  afterAll(() => runtime.dispose())

  it("holds a forward reader behind an uncommitted transaction, then shows its fact before the later one", () =>
    runtime.runPromise(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const sql = yield* PgClient.PgClient
        const base = testPrefix("horizon")
        const readAfter = (from: string) =>
          ledger.readAll({ direction: "forward", from, limit: 10, filter: { streamPrefix: base } })
        /** Reads until the page has `count` facts: other sessions on the server may hold the horizon briefly. */
        const readUntil = (read: Effect.Effect<ReadonlyArray<PositionedFact>, unknown>, count: number) =>
          read.pipe(
            Effect.repeat({ until: (page) => page.length >= count }),
            Effect.timeoutFail({ duration: "10 seconds", onTimeout: () => `fewer than ${count} facts` })
          )

        yield* ledger.append([{ stream: `${base}start`, expected: 0, facts: [newFact("start")] }])
        const [start] = yield* readUntil(
          ledger.readAll({ direction: "forward", limit: 10, filter: { streamPrefix: base } }),
          1
        )

        const inserted = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const early = newFact("early")
        const open = yield* Effect.fork(
          sql.withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO ${sql(`${schema}.runledger_facts`)} (id, type, stream, position, data, metadata)
                VALUES (${early.id}, ${early.type}, ${`${base}early`}, 1, '{}', ${JSON.stringify(early.metadata)}::jsonb)`
              yield* Deferred.succeed(inserted, undefined)
              yield* Deferred.await(release)
            })
          )
        )
        yield* Deferred.await(inserted)
        yield* ledger.append([{ stream: `${base}late`, expected: 0, facts: [newFact("late")] }])

        expect((yield* ledger.readStream(`${base}late`)).map((fact) => fact.type)).toEqual(["late"])
        expect(yield* readAfter(start.position)).toEqual([])
        yield* Effect.sleep("200 millis")
        expect(yield* readAfter(start.position)).toEqual([])
        expect(
          yield* ledger.readAll({ direction: "backward", limit: 10, filter: { streamPrefix: base } })
        ).toHaveLength(1)
        const above = newFact("above")
        yield* ledger.append([{ stream: `${testPrefix("horizon")}above`, expected: 0, facts: [above] }])
        const abovePosition = Option.getOrThrow(yield* ledger.readFact(above.id)).position
        const belowAbove = yield* ledger.readAll({
          direction: "backward",
          from: abovePosition,
          limit: 10,
          filter: { streamPrefix: base }
        })
        expect(belowAbove.map((positioned) => positioned.fact.type)).toEqual(["start"])

        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(open)
        const after = yield* readUntil(readAfter(start.position), 2)
        expect(after.map((positioned) => positioned.fact.type)).toEqual(["early", "late"])
        const backward = yield* ledger.readAll({ direction: "backward", limit: 10, filter: { streamPrefix: base } })
        expect(backward.map((positioned) => positioned.fact.type)).toEqual(["late", "early", "start"])
      })
    ))
})
