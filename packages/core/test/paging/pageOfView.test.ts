import { Ledger, type Projection, Projections, Views } from "@runledger/core"
import { MemoryLedger } from "@runledger/store-memory"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pageOfView } from "../../src/paging/pageOfView.js"

/** An item of the test's view: its number, newest (largest) first. */
interface Item {
  readonly n: number
}

const view = "paged_items"
const partition = "items"
const items = 3_000

/** One document per `paged_item` fact, sorted by its number. */
const itemsProjection: Projection = {
  view,
  types: ["paged_item"],
  keys: (fact) => [{ view, partition, id: `item-${(fact.data as Item).n}` }],
  apply: (_current, fact, key) => ({
    id: key.id,
    sort: String((fact.data as Item).n).padStart(8, "0"),
    data: fact.data
  })
}

/** The documents the views returned to `list`, counted over the test. */
const read = { docs: 0 }

/** The memory store's views, counting the documents each listing returns. */
const countingViews = Layer.effect(
  Views,
  Effect.map(Views, (views) =>
    Views.of({
      ...views,
      list: (listed, within, listing) =>
        views.list(listed, within, listing).pipe(Effect.tap((docs) => Effect.sync(() => (read.docs += docs.length))))
    })
  )
)

const store = MemoryLedger.layer.pipe(Layer.provide(Layer.succeed(Projections, [itemsProjection])))
const runtime = ManagedRuntime.make(Layer.merge(store, countingViews.pipe(Layer.provide(store))))

beforeAll(() =>
  runtime.runPromise(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      for (let n = 1; n <= items; n += 500)
        yield* ledger.append([
          {
            stream: "paged/items",
            expected: "any",
            facts: Array.from({ length: 500 }, (_, offset) => ({
              id: `fact-${n + offset}`,
              type: "paged_item",
              data: { n: n + offset },
              metadata: { correlation_id: null, causation_id: null, at: new Date().toISOString(), by: "test" }
            }))
          }
        ])
    })
  )
)
afterAll(() => runtime.dispose())

/** Reads every page of the view with a filter, and the documents each page read. */
const readPages = (keeps: ((item: Item) => boolean) | undefined, limit = 20) =>
  runtime.runPromise(
    Effect.gen(function* () {
      const pages: Array<{ items: ReadonlyArray<number>; has_more: boolean; docs: number }> = []
      let cursor: string | undefined
      for (;;) {
        read.docs = 0
        const page = yield* pageOfView<Item>({ view, partition, scope: "items", cursor, limit, keeps })
        pages.push({ items: page.items.map((item) => item.n), has_more: page.has_more, docs: read.docs })
        if (page.next_cursor === null) return pages
        cursor = page.next_cursor
      }
    })
  )

/** The items from `items` down to 1 that a filter keeps. */
const newestFirst = (keeps: (n: number) => boolean) =>
  Array.from({ length: items }, (_, index) => items - index).filter(keeps)

describe("pageOfView (ADR 0014)", () => {
  it("reads limit + 1 documents for a page without a filter", async () => {
    const pages = await readPages(undefined, 50)
    expect(pages.flatMap((page) => page.items)).toEqual(newestFirst(() => true))
    expect(pages[0]).toMatchObject({ has_more: true, docs: 51 })
  })

  it("reads about as many documents as a page looks at when the filter keeps most of them", async () => {
    const even = (n: number) => n % 2 === 0
    const pages = await readPages((item) => even(item.n))
    expect(pages.flatMap((page) => page.items)).toEqual(newestFirst(even))
    expect(pages[0].items).toHaveLength(20)
    for (const page of pages.slice(0, -1)) expect(page.docs).toBeLessThan(2 * 40 + 5)
  })

  it("stops after looking at 1,000 documents when the filter keeps few, and reads on from there", async () => {
    const rare = (n: number) => n % 700 === 0
    const pages = await readPages((item) => rare(item.n))
    expect(pages.map((page) => page.items)).toEqual([[2800, 2100], [1400], [700]])
    expect(pages.map((page) => page.has_more)).toEqual([true, true, false])
    for (const page of pages) expect(page.docs).toBeLessThanOrEqual(1_000 + 10)
  })

  it("gives an empty page with more to read when the filter keeps none of the first 1,000 documents", async () => {
    const pages = await readPages(() => false)
    expect(pages.map((page) => [page.items.length, page.has_more])).toEqual([
      [0, true],
      [0, true],
      [0, false]
    ])
  })
})
