import { createRequire } from "node:module"
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

/** One document per prefix that a `made` fact makes and a `bumped` fact counts once it is made (ADR 0415). */
const keptView = "known_documents_kept"
const keptProjection: Projection = {
  view: keptView,
  types: ["made", "bumped"],
  keys: (fact) => [{ view: keptView, partition: "kept", id: (fact.data as { prefix: string }).prefix }],
  apply: (current, fact, key) => {
    if (fact.type === "made") return { id: key.id, sort: "", data: { bumps: 0 } }
    if (current === undefined) return undefined
    return { id: key.id, sort: "", data: { bumps: (current.data as { bumps: number }).bumps + 1 } }
  }
}

/** The texts every `pg` client of this process sends while `during` runs (the store's driver, shared). */
const sentDuring = async (during: () => Promise<unknown>): Promise<ReadonlyArray<string>> => {
  const { Client } = createRequire(import.meta.url)("pg") as {
    Client: { prototype: { query: (this: unknown, ...args: Array<unknown>) => unknown } }
  }
  const query = Client.prototype.query
  const texts: Array<string> = []
  Client.prototype.query = function (this: unknown, ...args: Array<unknown>) {
    const first = args[0] as string | { text?: string }
    texts.push(typeof first === "string" ? first : (first?.text ?? ""))
    return query.apply(this, args)
  }
  try {
    await during()
  } finally {
    Client.prototype.query = query
  }
  return texts
}

/** How many appends of the texts sent went in one statement (`known`), and how many the reading way. */
const waysOf = (sent: ReadonlyArray<string>) => ({
  known: sent.filter((text) => text.includes("runledger_append_known")).length,
  reading: sent.filter((text) => text.includes("runledger_prepare")).length
})

postgresSuite("documents an instance knows", "alongside", ({ url, schema }) => {
  const instance = () =>
    ManagedRuntime.make(
      PostgresLedger.layer({ url, schema }).pipe(
        Layer.provide(Layer.succeed(Projections, [totalProjection, keptProjection]))
      )
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

  const keptOf = (prefix: string) =>
    Effect.flatMap(Views, (views) => views.get({ view: keptView, partition: "kept", id: prefix })).pipe(
      Effect.map((doc) => (Option.getOrUndefined(doc)?.data as { bumps: number } | undefined)?.bumps)
    )

  it("takes a document it never saw for absent on a stream it wrote all of, in one statement", async () => {
    const prefix = testPrefix("guess")
    await first.runPromise(append(prefix, "a", 0, "other"))
    const sent = await sentDuring(() => first.runPromise(append(prefix, "a", 1, "bumped")))
    expect(waysOf(sent)).toEqual({ known: 1, reading: 0 })
    expect(await first.runPromise(keptOf(prefix))).toBeUndefined()
    // Known absent from then on: a fact that makes it is folded over nothing, in one statement too.
    const making = await sentDuring(() => first.runPromise(append(prefix, "a", 2, "made")))
    expect(waysOf(making)).toEqual({ known: 1, reading: 0 })
    expect(await first.runPromise(keptOf(prefix))).toBe(0)
    // A document made from nothing on such a stream: the same.
    const other = testPrefix("guess")
    await first.runPromise(append(other, "a", 0, "other"))
    const made = await sentDuring(() => first.runPromise(append(other, "a", 1, "made")))
    expect(waysOf(made)).toEqual({ known: 1, reading: 0 })
    expect(await first.runPromise(keptOf(other))).toBe(0)
  })

  it("reads a document it took for absent that another instance made, and folds over it", async () => {
    const prefix = testPrefix("guess")
    await first.runPromise(append(prefix, "a", 0, "other"))
    await second.runPromise(append(prefix, "b", 0, "made"))
    const sent = await sentDuring(() => first.runPromise(append(prefix, "a", 1, "bumped")))
    // The guess went, PostgreSQL refused it (the document is there), and the append read it the other way.
    expect(waysOf(sent)).toEqual({ known: 1, reading: 1 })
    await first.runPromise(append(prefix, "a", 2, "bumped"))
    expect(await first.runPromise(keptOf(prefix))).toBe(2)
    expect(await second.runPromise(keptOf(prefix))).toBe(2)
  })

  it("reads a document it does not know on a stream another instance appended to", async () => {
    const prefix = testPrefix("guess")
    await first.runPromise(append(prefix, "a", 0, "other"))
    await second.runPromise(append(prefix, "a", 1, "made"))
    const sent = await sentDuring(() => first.runPromise(append(prefix, "a", 2, "bumped")))
    expect(waysOf(sent)).toEqual({ known: 0, reading: 1 })
    expect(await first.runPromise(keptOf(prefix))).toBe(1)
  })
})
