import { Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { countKeys, newCountsView } from "../../src/activity/newRowCounts.js"
import { appendFact, okOn } from "../changes/changesFixture.js"
import { makeRuntime } from "../runtimeFixture.js"

const minute = 60_000
const hour = 60 * minute
const day = 24 * hour

/** Three days ago, 30.123 s into a minute: the place the through is set at. */
const placed = Math.floor((Date.now() - 3 * day) / minute) * minute + 30_123

/** The time `offset` ms from the through's place. */
const timeOf = (offset: number) => new Date(placed + offset).toISOString()

/** A run that succeeded `offset` ms from the through's place, in a playbook, started by a caller. */
interface Succeeded {
  readonly offset: number
  readonly playbook: string
  readonly by: string
  readonly id: string
}

const full = "key:build-bot"
const limited = "key:limited"
const reader = "key:reader"

/** Runs on each side of the through's millisecond, minute, hour and day, and of a first read's 7 days. */
const succeeded: ReadonlyArray<Succeeded> = [
  [-8 * day, "finance", limited],
  [Date.now() - 7 * day - minute - placed, "sales", limited],
  [Date.now() - 7 * day + minute - placed, "sales", reader],
  [-day, "sales", limited],
  [-hour, "finance", reader],
  [-minute, "archive", limited],
  [-1, "finance", limited],
  [0, "finance", limited],
  [0, "sales", limited],
  [0, "sales", full],
  [1, "archive", reader],
  [20_000, "finance", full],
  [20_000, "sales", limited],
  [minute, "sales", reader],
  [30 * minute, "finance", limited],
  [hour, "archive", limited],
  [5 * hour, "finance", full],
  [day, "sales", reader],
  [day + 1, "finance", limited],
  [2 * day, "archive", limited]
].map(([offset, playbook, by], index) => ({
  offset: offset as number,
  playbook: playbook as string,
  by: by as string,
  id: `0199a3c4-7d2e-7c1a-9b3f-${String(index).padStart(12, "0")}`
}))

/** Counts of new rows, from the counts view, beside the rows each read marks unseen, on one store. */
const suite = (store: () => Parameters<typeof makeRuntime>[2]) => {
  let fixture: ReturnType<typeof makeRuntime>
  const ok = okOn(() => fixture)
  const run = async ({ offset, playbook, by, id }: Succeeded, ending = "run_succeeded") => {
    const stream = `playbook/acme/${playbook}/runs/${id}`
    const at = timeOf
    const metadata = {
      run_id: id,
      correlation_id: id,
      definition: { type: "computation", name: "echo", version: 1 }
    }
    await appendFact(
      fixture,
      stream,
      "run_started",
      { input: {}, calls_tools: false, finishes_later: false, started_by: { id: by, name: by }, attempt: 1 },
      { ...metadata, at: at(offset - 50), by }
    )
    await appendFact(fixture, stream, ending, ending === "run_succeeded" ? { output: 1, record: {} } : {}, {
      ...metadata,
      at: at(offset),
      by,
      first_started_at: at(offset - 50)
    })
  }
  /** A key's new rows marked unseen, over the playbooks it reads (every one, or each it may access). */
  const unseenRows = async (key: string, playbooks: ReadonlyArray<string | undefined>) => {
    let unseen = 0
    for (const playbook of playbooks) {
      let cursor: string | undefined
      do {
        const page = await ok(key, "list_activity", {
          kind: "new",
          limit: 200,
          ...(playbook === undefined ? {} : { playbook }),
          ...(cursor === undefined ? {} : { cursor })
        })
        unseen += page.rows.filter((row: { seen: boolean }) => row.seen === false).length
        cursor = page.next_cursor ?? undefined
      } while (cursor !== undefined)
    }
    return unseen
  }
  const counted = async (key: string, playbook?: string) =>
    (await ok(key, "list_activity", playbook === undefined ? {} : { playbook })).counts.new
  /** Every key's count equals the rows its reads mark unseen. */
  const expectCountsOfRows = async () => {
    expect(await counted("full")).toBe(await unseenRows("full", [undefined]))
    expect(await counted("reader")).toBe(await unseenRows("reader", [undefined]))
    expect(await counted("limited", "finance")).toBe(await unseenRows("limited", ["finance", "sales"]))
  }
  /** The cursor of a row of the test's runs, from a read. */
  const cursorOf = async (index: number) => {
    const { playbook, id } = succeeded[index]
    const page = await ok("full", "list_activity", { kind: "new", playbook, limit: 200 })
    return page.rows.find((row: { run_id: string }) => row.run_id === id).cursor as string
  }
  /** The count documents of the runs' times, by level: days, hours, minutes. */
  const countDocs = () => {
    const partitions = (level: number) => [
      ...new Set(succeeded.map((each) => countKeys("acme", each.playbook, timeOf(each.offset))[level].partition))
    ]
    return fixture.runtime.runPromise(
      Effect.flatMap(Views, (views) =>
        Effect.forEach([0, 1, 2], (level) =>
          Effect.map(
            Effect.forEach(partitions(level).sort(), (partition) =>
              views.list(newCountsView, partition, { direction: "ascending", limit: 1000 })
            ),
            (pages) => pages.flat()
          )
        )
      )
    )
  }

  beforeAll(async () => {
    fixture = makeRuntime({}, undefined, store())
    for (const playbook of ["finance", "sales", "archive"])
      await ok("full", "create_playbook", { playbook, name: playbook })
    for (const each of succeeded) await run(each)
    await run(
      { offset: 10_000, playbook: "finance", by: limited, id: "0199a3c4-7d2e-7c1a-9b3f-fa11ed000000" },
      "run_failed"
    )
  }, 60_000)
  afterAll(() => fixture.runtime.dispose())

  it("counts per day, hour and minute every run that succeeded, by who started it", async () => {
    const [days, hours, minutes] = await countDocs()
    const rows = (docs: typeof days) => docs.reduce((total, doc) => total + (doc.data as { rows: number }).rows, 0)
    expect([rows(days), rows(hours), rows(minutes)]).toEqual([succeeded.length, succeeded.length, succeeded.length])
    const at = new Date(placed).toISOString()
    expect(minutes.find((doc) => doc.id === `${at.slice(0, 16)}/sales`)?.data).toEqual({
      playbook: "sales",
      rows: 3,
      by: { [limited]: 2, [full]: 1 }
    })
  })

  it("a first read counts the rows of the last 7 days its reads mark unseen", async () => {
    await expectCountsOfRows()
    expect(await counted("reader")).toBeGreaterThan(0)
  })

  it("counts after a through within a minute, and the marks after it, as the rows say", async () => {
    const through = await cursorOf(7)
    await ok("full", "mark_activity_seen", { through })
    await ok("limited", "mark_activity_seen", { through: await cursorOf(3) })
    await ok("reader", "mark_activity_seen", { through: await cursorOf(6) })
    await expectCountsOfRows()
    const later = (index: number) => ({
      address: `${succeeded[index].playbook}/runs/${succeeded[index].id}`,
      at: new Date(placed + succeeded[index].offset).toISOString()
    })
    await ok("full", "mark_activity_seen", {
      items: [later(12), later(19), { ...later(17), at: new Date(placed + day - 1).toISOString() }, later(11)]
    })
    await ok("limited", "mark_activity_seen", { items: [later(13), later(16)] })
    await expectCountsOfRows()
  })

  it("counts what a retired playbook leaves, and the rows of a through of no row's millisecond", async () => {
    await ok("full", "retire_playbook", { playbook: "archive" })
    await expectCountsOfRows()
    const between = Buffer.from(
      JSON.stringify({ s: "activity|acme", p: { at: placed + 0.5, address: "a" } }),
      "utf8"
    ).toString("base64url")
    await ok("reader", "mark_activity_seen", { through: between })
    await expectCountsOfRows()
  })

  it("rebuilds the counts from the ledger as they stood", async () => {
    const before = await countDocs()
    await fixture.runtime.runPromise(Effect.flatMap(Views, (views) => views.rebuild))
    expect(await countDocs()).toEqual(before)
  })
}

describe("counts of new rows (memory store)", () => suite(() => MemoryStore.layer))
postgresSuite("counts of new rows", "alongside", (database) =>
  suite(() => PostgresStore.layer({ url: database.url, schema: database.schema }))
)
