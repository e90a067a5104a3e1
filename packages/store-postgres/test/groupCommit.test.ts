import * as PgClient from "@effect/sql-pg/PgClient"
import { Ledger, type Projection, Projections, Views } from "@runledger/core"
import { PostgresLedger } from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, Either, Layer, ManagedRuntime, Option, Redacted } from "effect"
import { afterAll, expect, it } from "vitest"
import { newFact, testPrefix } from "./facts.js"

/** A projection whose one document per prefix every `tallied` fact changes: the hot document of ADR 0407. */
const totalView = "group_commit_totals"
const totalProjection: Projection = {
  view: totalView,
  types: ["tallied"],
  keys: (fact) => [{ view: totalView, partition: "totals", id: (fact.data as { prefix: string }).prefix }],
  apply: (current, fact, key) => {
    const count = ((current?.data as { count?: number } | undefined)?.count ?? 0) + 1
    return { id: key.id, sort: "", data: { count, last: fact.metadata.global_position } }
  }
}

postgresSuite("group commit", "alongside", ({ url, schema }) => {
  const runtime = ManagedRuntime.make(
    Layer.merge(
      PostgresLedger.layer({ url, schema }).pipe(Layer.provide(Layer.succeed(Projections, [totalProjection]))),
      PgClient.layer({ url: Redacted.make(url), maxConnections: 2 })
    )
  )
  afterAll(() => runtime.dispose())

  const tallied = (prefix: string) => newFact("tallied", { prefix })
  const totalOf = (prefix: string) =>
    Effect.flatMap(Views, (views) => views.get({ view: totalView, partition: "totals", id: prefix })).pipe(
      Effect.map((doc) => Option.getOrUndefined(doc)?.data as { count: number; last: number } | undefined)
    )
  /** How many transactions recorded the facts under `prefix`. */
  const transactionsOf = (prefix: string) =>
    Effect.flatMap(PgClient.PgClient, (sql) =>
      sql<{ count: number }>`SELECT count(DISTINCT tx)::int AS count FROM ${sql(`${schema}.runledger_facts`)}
        WHERE starts_with(stream, ${prefix})`.pipe(Effect.map((rows) => rows[0]!.count))
    )

  it("commits appends made at once together, each with its own streams, and folds each into the shared document", () =>
    runtime.runPromise(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const prefix = testPrefix("group")
        const results = yield* Effect.forEach(
          Array.from({ length: 24 }, (_, index) => index),
          (index) => ledger.append([{ stream: `${prefix}${index}`, expected: 0, facts: [tallied(prefix)] }]),
          { concurrency: "unbounded" }
        )
        expect(results.map((result, index) => result.versions.get(`${prefix}${index}`))).toEqual(results.map(() => 1))
        expect(results.map((result) => [...result.versions.keys()].length)).toEqual(results.map(() => 1))
        const total = yield* totalOf(prefix)
        expect(total?.count).toBe(24)
        expect(total?.last).toBe(Math.max(...results.map((result) => result.facts[0]!.metadata.global_position)))
        expect(yield* transactionsOf(prefix)).toBeLessThan(24)
        yield* Effect.flatMap(Views, (views) => views.rebuild)
        expect(yield* totalOf(prefix)).toEqual(total)
      })
    ))

  it("lets one of many appends at one version through and refuses the others, which change nothing", () =>
    runtime.runPromise(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const prefix = testPrefix("group")
        const outcomes = yield* Effect.forEach(
          Array.from({ length: 12 }, () => tallied(prefix)),
          (fact) => Effect.either(ledger.append([{ stream: `${prefix}one`, expected: 0, facts: [fact] }])),
          { concurrency: "unbounded" }
        )
        expect(outcomes.filter(Either.isRight)).toHaveLength(1)
        expect(outcomes.flatMap((outcome) => (Either.isLeft(outcome) ? [outcome.left] : []))).toEqual(
          Array.from({ length: 11 }, () => expect.objectContaining({ stream: `${prefix}one`, expected: 0, actual: 1 }))
        )
        expect((yield* ledger.readStream(`${prefix}one`)).map((fact) => fact.metadata.position)).toEqual([1])
        expect((yield* totalOf(prefix))?.count).toBe(1)
      })
    ))

  it("refuses an append whose fact id is recorded and commits the appends made with it", () =>
    runtime.runPromise(
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const prefix = testPrefix("group")
        const taken = tallied(prefix)
        yield* ledger.append([{ stream: `${prefix}taken`, expected: 0, facts: [taken] }])
        const outcomes = yield* Effect.forEach(
          Array.from({ length: 12 }, (_, index) => index),
          (index) =>
            Effect.either(
              ledger.append([
                { stream: `${prefix}${index}`, expected: 0, facts: [index === 5 ? taken : tallied(prefix)] }
              ])
            ),
          { concurrency: "unbounded" }
        )
        expect(outcomes.map(Either.isLeft)).toEqual(outcomes.map((_, index) => index === 5))
        expect(outcomes[5]).toEqual(
          Either.left(expect.objectContaining({ _tag: "VersionConflict", stream: `${prefix}5` }))
        )
        expect(yield* ledger.readStream(`${prefix}5`)).toEqual([])
        expect((yield* totalOf(prefix))?.count).toBe(12)
      })
    ))
})
