import { dayBucketView, Ledger, runDayView, Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import * as PostgresStore from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { analyticsWindow } from "../../src/analytics/AnalyticsWindow.js"
import { analyticsOf, runsOfBuckets } from "../../src/analytics/analyticsOf.js"
import type { DayBucket } from "../../src/analytics/DayBucket.js"
import { okOn } from "../changes/changesFixture.js"
import { echoFormats } from "../echoFormat.js"
import { makeRuntime } from "../runtimeFixture.js"
import { dayAgo, daysAgo, runRecorder, usage } from "./analyticsFixture.js"

const triage = { type: "reasoning", name: "triage" }
const flaky = "0199a3c4-7d2e-7c1a-9b3f-00000000f1a4"
const sum = { type: "computation", name: "sum" }

/** The bucket view, the runs' tallies aside, and analytics over it, on one store; rebuilt from the ledger. */
const suite = (store: () => Parameters<typeof makeRuntime>[2]) => {
  let fixture: ReturnType<typeof makeRuntime>
  const ok = okOn(() => fixture)
  const runFact = runRecorder(() => fixture)
  const inFinance = { playbook: "finance" }
  const analytics = (input: unknown) => ok("full", "get_playbook_analytics", input, inFinance)
  const listed = (view: string) =>
    fixture.runtime.runPromise(
      Effect.flatMap(Views, (views) => views.list(view, "acme/finance", { direction: "ascending", limit: 1000 }))
    )
  const buckets = () => listed(dayBucketView)

  beforeAll(async () => {
    fixture = makeRuntime({}, echoFormats, store())
    await ok("full", "create_playbook", { playbook: "finance", name: "Finance" })
    // Three days ago: a1 failed, then succeeded two days later; a2 was rejected after its model answered; b1 took
    // 1,234 ms. A day ago: b2 succeeded; b3 failed and is going again; a3 is going.
    await runFact("a1", "run_started", daysAgo(3, 10))
    await runFact("a1", "model_call_answered", daysAgo(3, 10, 10), { cost_usd: 0.01 })
    await runFact("a1", "run_failed", daysAgo(3, 10, 5000), { incident: "i", detail: "broke" })
    await runFact("a2", "run_started", daysAgo(3, 11))
    await runFact("a2", "model_call_answered", daysAgo(3, 11, 10), { cost_usd: 0.5 })
    await runFact("a2", "run_rejected", daysAgo(3, 11, 900), {
      reason: "conflict",
      detail: "no",
      record: usage(7, 0, 3)
    })
    await runFact("b1", "run_started", daysAgo(3, 12), {}, sum)
    await runFact("b1", "run_succeeded", daysAgo(3, 12, 1234), { output: 1, record: {} }, sum)
    await runFact("a1", "run_started", daysAgo(1, 9))
    await runFact("a1", "model_call_answered", daysAgo(1, 9, 100), { cost_usd: 0.02 })
    await runFact("a1", "run_succeeded", daysAgo(1, 9, 1500), { output: "ok", record: usage(100, 40, 10) })
    await runFact("b2", "run_started", daysAgo(1, 10), {}, sum)
    await runFact("b2", "run_succeeded", daysAgo(1, 10, 200), { output: 2, record: {} }, sum)
    await runFact("b3", "run_started", daysAgo(1, 10), {}, sum)
    await runFact("b3", "run_failed", daysAgo(1, 10, 70), { incident: "i", detail: "broke" }, sum)
    await runFact("b3", "run_started", daysAgo(1, 11), {}, sum)
    await runFact("a3", "run_started", daysAgo(1, 12))
  }, 60_000)
  afterAll(() => fixture.runtime.dispose())

  it("keeps one bucket per day of first start and definition, and answers from them", async () => {
    expect((await buckets()).map((doc) => doc.id)).toEqual([
      `${dayAgo(3)}/computation/sum`,
      `${dayAgo(3)}/reasoning/triage`,
      `${dayAgo(1)}/computation/sum`
    ])
    const answer = await analytics({})
    expect(answer).toMatchObject({
      runs: { total: 4, succeeded: 3, failed: 0, rejected: 1 },
      tokens: { input: 147, output: 13, cached: 40 },
      cost_usd: 0.53,
      duration_ms: { p50: 1230, p95: 1500 },
      by_function: [
        { ...sum, runs: 2, tokens: { input: 0, output: 0, cached: 0 }, cost_usd: null },
        { ...triage, runs: 2, tokens: { input: 147, output: 13, cached: 40 }, cost_usd: 0.53 }
      ]
    })
    const day = (days: number) => answer.by_day.find((entry: { day: string }) => entry.day === dayAgo(days))
    expect(day(3)).toEqual({
      day: dayAgo(3),
      runs: { total: 3, succeeded: 2, failed: 0, rejected: 1 },
      tokens: { input: 147, output: 13, cached: 40 },
      cost_usd: 0.53,
      duration_ms: { p50: 1230, p95: 1500 }
    })
    expect(day(1)).toMatchObject({
      runs: { total: 1, succeeded: 1 },
      cost_usd: null,
      duration_ms: { p50: 200, p95: 200 }
    })
    expect((await analytics({ type: "computation" })).runs.total).toBe(2)
  })

  it("answers a whole playbook from one document a day, as the day's buckets add up", async () => {
    expect((await listed(runDayView)).map((doc) => doc.id)).toEqual([dayAgo(3), dayAgo(1)])
    const window = analyticsWindow({ days: 30 }, Date.now())
    if (window._tag === "Left") throw new Error("no window")
    const fromBuckets = analyticsOf(window.right, runsOfBuckets((await buckets()).map((doc) => doc.data as DayBucket)))
    expect(await analytics({ days: 30 })).toEqual(fromBuckets)
  })

  it("answers the same, bucket for bucket and day for day, after the views are dropped and rebuilt from the ledger", async () => {
    const read = async () => ({
      analytics: await analytics({ days: 30 }),
      buckets: await buckets(),
      days: await listed(runDayView)
    })
    const before = await read()
    await fixture.runtime.runPromise(Effect.flatMap(Views, (views) => views.rebuild))
    expect(await read()).toEqual(before)
  })

  it("run_definition records the first start on a run's endings and on its later starts, and events do not show it", async () => {
    await ok(
      "full",
      "create_definition",
      { type: "computation", name: "echo", source: "Echo", diagram: "none" },
      inFinance
    )
    for (let attempt = 0; attempt < 2; attempt++)
      await fixture.call(
        "full",
        "run_definition",
        { type: "computation", name: "echo", input: { flaky: true }, run_id: flaky },
        inFinance
      )
    const facts = await fixture.runtime.runPromise(
      Effect.flatMap(Ledger, (ledger) => ledger.readStream(`playbook/acme/finance/runs/${flaky}`))
    )
    const first = facts[0].metadata.at
    expect(facts.map((fact) => [fact.type, fact.metadata.first_started_at])).toEqual([
      ["run_started", undefined],
      ["run_rejected", first],
      ["run_started", first],
      ["run_rejected", first]
    ])
    expect((await analytics({ type: "computation", name: "echo" })).runs).toEqual({
      total: 1,
      succeeded: 0,
      failed: 0,
      rejected: 1
    })
    const history = await ok("full", "get_run_history", { run_id: flaky }, inFinance)
    expect(history.events.map((event: { metadata: object }) => "first_started_at" in event.metadata)).toEqual([
      false,
      false,
      false,
      false
    ])
  })
}

describe("analytics buckets (memory store)", () => suite(() => MemoryStore.layer))
postgresSuite("analytics buckets", "alongside", (database) =>
  suite(() => PostgresStore.layer({ url: database.url, schema: database.schema }))
)
