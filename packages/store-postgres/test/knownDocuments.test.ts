import { Ledger, type Projection, Projections, Views } from "@runledger/core"
import { PostgresLedger } from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { afterAll, expect, it } from "vitest"
import { newFact, testPrefix } from "./facts.js"

/** One document per prefix that every `tallied` fact counts, and that `cleared` deletes. */
const totalView = "known_documents_totals"
const totalProjection: Projection = {
  view: totalView,
  types: ["tallied", "cleared"],
  keys: (fact) => [{ view: totalView, partition: "totals", id: (fact.data as { prefix: string }).prefix }],
  apply: (current, fact, key) => {
    if (fact.type === "cleared") return undefined
    const count = ((current?.data as { count?: number } | undefined)?.count ?? 0) + 1
    return { id: key.id, sort: "", data: { count } }
  }
}

postgresSuite("documents an instance knows", "alongside", ({ url, schema }) => {
  const instance = () =>
    ManagedRuntime.make(
      PostgresLedger.layer({ url, schema }).pipe(Layer.provide(Layer.succeed(Projections, [totalProjection])))
    )
  const first = instance()
  const second = instance()
  afterAll(async () => {
    await first.dispose()
    await second.dispose()
  })

  const append = (prefix: string, stream: string, expected: number, type = "tallied") =>
    Effect.flatMap(Ledger, (ledger) =>
      ledger.append([{ stream: `${prefix}${stream}`, expected, facts: [newFact(type, { prefix })] }])
    )
  const totalOf = (prefix: string) =>
    Effect.flatMap(Views, (views) => views.get({ view: totalView, partition: "totals", id: prefix })).pipe(
      Effect.map((doc) => (Option.getOrUndefined(doc)?.data as { count: number } | undefined)?.count)
    )

  it("folds over a document another instance changed since this one wrote it", async () => {
    const prefix = testPrefix("known")
    await first.runPromise(append(prefix, "a", 0))
    await first.runPromise(append(prefix, "a", 1))
    await second.runPromise(append(prefix, "b", 0))
    await first.runPromise(append(prefix, "a", 2))
    await second.runPromise(append(prefix, "b", 1))
    expect(await first.runPromise(totalOf(prefix))).toBe(5)
  })

  it("folds over a document another instance made where this one would take it for absent", async () => {
    const prefix = testPrefix("known")
    await second.runPromise(append(prefix, "b", 0))
    await first.runPromise(append(prefix, "a", 0))
    expect(await first.runPromise(totalOf(prefix))).toBe(2)
  })

  it("folds over a document another instance deleted, and over the views rebuilt", async () => {
    const prefix = testPrefix("known")
    await first.runPromise(append(prefix, "a", 0))
    await first.runPromise(append(prefix, "a", 1))
    await second.runPromise(append(prefix, "b", 0, "cleared"))
    await first.runPromise(append(prefix, "a", 2))
    expect(await first.runPromise(totalOf(prefix))).toBe(1)
    await second.runPromise(Effect.flatMap(Views, (views) => views.rebuild))
    await first.runPromise(append(prefix, "a", 3))
    expect(await first.runPromise(totalOf(prefix))).toBe(2)
  })

  it("refuses an append at the wrong version and records nothing, whatever it knows", async () => {
    const prefix = testPrefix("known")
    await first.runPromise(append(prefix, "a", 0))
    await second.runPromise(append(prefix, "a", 1))
    const refused = await first.runPromise(Effect.either(append(prefix, "a", 1)))
    expect(refused).toEqual(
      expect.objectContaining({
        left: expect.objectContaining({ _tag: "VersionConflict", stream: `${prefix}a`, expected: 1, actual: 2 })
      })
    )
    expect(await first.runPromise(totalOf(prefix))).toBe(2)
    await first.runPromise(append(prefix, "a", 2))
    expect(await first.runPromise(totalOf(prefix))).toBe(3)
  })
})
