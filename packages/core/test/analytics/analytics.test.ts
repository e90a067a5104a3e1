import { Views } from "@runledger/core"
import { Effect } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { okOn, refusedOn } from "../changes/changesFixture.js"
import { makeRuntime } from "../runtimeFixture.js"
import { dayAgo, daysAgo, runRecorder, usage } from "./analyticsFixture.js"

let fixture: ReturnType<typeof makeRuntime>
const ok = okOn(() => fixture)
const refused = refusedOn(() => fixture)
const inFinance = { playbook: "finance" }
const analytics = (input: unknown) => ok("full", "get_playbook_analytics", input, inFinance)

let runFact: ReturnType<typeof runRecorder>

beforeEach(async () => {
  fixture = makeRuntime()
  runFact = runRecorder(() => fixture)
  await ok("full", "create_playbook", { playbook: "finance", name: "Finance" })
})
afterEach(() => fixture.runtime.dispose())

describe("get_playbook_analytics: the window", () => {
  it("reads the last 7 days ending today when nothing is given, every day present oldest first", async () => {
    const answer = await analytics({})
    expect(answer.days).toBe(7)
    expect(answer.by_day.map((day: { day: string }) => day.day)).toEqual([6, 5, 4, 3, 2, 1, 0].map(dayAgo))
    expect(answer.by_day[0]).toEqual({
      day: dayAgo(6),
      runs: { total: 0, succeeded: 0, failed: 0, rejected: 0 },
      tokens: { input: 0, output: 0, cached: 0 },
      cost_usd: null,
      duration_ms: null
    })
    expect(answer).toMatchObject({ runs: { total: 0 }, cost_usd: null, duration_ms: null, by_function: [] })
    expect((await analytics({ days: 14 })).by_day).toHaveLength(14)
    expect((await analytics({ days: 30 })).days).toBe(30)
  })

  it("reads from and to, both included, up to 366 days", async () => {
    const answer = await analytics({ from: dayAgo(365), to: dayAgo(0) })
    expect(answer.days).toBe(366)
    expect(answer.by_day[0].day).toBe(dayAgo(365))
    expect(
      (await analytics({ from: "2024-02-28", to: "2024-03-01" })).by_day.map((day: { day: string }) => day.day)
    ).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"])
  })

  it("refuses at the parameter: another days, days with from or to, one of from and to alone, a day not in the calendar, to before from or after today, over 366 days, any other parameter", async () => {
    const cases: Array<[unknown, string]> = [
      [{ days: 10 }, "/days"],
      [{ days: 7, from: "2026-01-01", to: "2026-01-02" }, "/days"],
      [{ days: 7, to: "2026-01-02" }, "/days"],
      [{ from: "2026-01-01" }, "/to"],
      [{ to: "2026-01-01" }, "/from"],
      [{ from: "2026-02-30", to: "2026-03-02" }, "/from"],
      [{ from: "2026-02-01", to: "2026-02-29" }, "/to"],
      [{ from: "1 May", to: "2026-03-02" }, "/from"],
      [{ from: "2026-03-02", to: "2026-03-01" }, "/to"],
      [{ from: dayAgo(3), to: daysAgo(-1).slice(0, 10) }, "/to"],
      [{ from: dayAgo(366), to: dayAgo(0) }, "/from"],
      [{ limit: 5 }, "/limit"]
    ]
    for (const [input, pointer] of cases) {
      const rejection = await refused("full", "get_playbook_analytics", input, inFinance)
      expect([JSON.stringify(input), rejection.reason, rejection.errors?.[0].pointer]).toEqual([
        JSON.stringify(input),
        "invalid_input",
        pointer
      ])
    }
  })

  it("answers not_found for a playbook the org does not have, and reads a retired playbook like any other", async () => {
    expect((await refused("full", "get_playbook_analytics", {}, { playbook: "nothing" })).reason).toBe("not_found")
    await ok("full", "retire_playbook", { playbook: "finance" })
    expect((await analytics({})).days).toBe(7)
  })
})

describe("get_playbook_analytics: how runs are counted", () => {
  it("counts a run once, on the day it first started, with its tokens and cost over every attempt and the duration of its last", async () => {
    await runFact("r1", "run_started", daysAgo(3, 23))
    await runFact("r1", "model_call_answered", daysAgo(3, 23, 1000), { cost_usd: 0.01 })
    await runFact("r1", "run_failed", daysAgo(3, 23, 5000), { incident: "i", detail: "broke" })
    await runFact("r1", "run_started", daysAgo(1, 9))
    await runFact("r1", "model_call_answered", daysAgo(1, 9, 100), { cost_usd: 0.02 })
    await runFact("r1", "run_succeeded", daysAgo(1, 9, 1500), { output: "ok", record: usage(100, 40, 10) })
    const answer = await analytics({})
    expect(answer.runs).toEqual({ total: 1, succeeded: 1, failed: 0, rejected: 0 })
    expect(answer.tokens).toEqual({ input: 140, output: 10, cached: 40 })
    expect(answer.cost_usd).toBe(0.03)
    expect(answer.duration_ms).toEqual({ p50: 1500, p95: 1500 })
    const day = answer.by_day.find((entry: { day: string }) => entry.day === dayAgo(3))
    expect(day.runs.total).toBe(1)
    expect(answer.by_day.find((entry: { day: string }) => entry.day === dayAgo(1)).runs.total).toBe(0)
  })

  it("counts a run only once it ended: a run still going counts nowhere, its earlier attempts included", async () => {
    await runFact("r1", "run_started", daysAgo(2))
    await runFact("r2", "run_started", daysAgo(2))
    await runFact("r2", "run_failed", daysAgo(2, 11), { incident: "i", detail: "broke" })
    await runFact("r2", "run_started", daysAgo(1))
    const answer = await analytics({})
    expect(answer.runs.total).toBe(0)
    expect(answer.duration_ms).toBeNull()
  })

  it("counts rejected runs in runs, tokens and cost but never in durations; cost is null only when no run recorded one", async () => {
    await runFact("r1", "run_started", daysAgo(1))
    await runFact("r1", "model_call_answered", daysAgo(1, 10, 10), { cost_usd: 0.5 })
    await runFact("r1", "run_rejected", daysAgo(1, 10, 900), {
      reason: "conflict",
      detail: "no",
      record: usage(7, 0, 3)
    })
    await runFact("r2", "run_started", daysAgo(1))
    await runFact("r2", "run_succeeded", daysAgo(1, 10, 200), { output: 1, record: usage(1, 0, 1) })
    const answer = await analytics({})
    expect(answer.runs).toEqual({ total: 2, succeeded: 1, failed: 0, rejected: 1 })
    expect(answer.tokens).toEqual({ input: 8, output: 4, cached: 0 })
    expect(answer.cost_usd).toBe(0.5)
    expect(answer.duration_ms).toEqual({ p50: 200, p95: 200 })
    expect(answer.by_day.find((entry: { day: string }) => entry.day === dayAgo(2)).cost_usd).toBeNull()
  })

  it("counts tokens of reasoning functions only, and workflow runs in runs and durations", async () => {
    const workflow = { type: "workflow", name: "close" }
    await runFact("w1", "run_started", daysAgo(1), {}, workflow)
    await runFact("w1", "run_succeeded", daysAgo(1, 10, 60_000), { output: 1, record: usage(5, 0, 5) }, workflow)
    const answer = await analytics({})
    expect(answer.runs.total).toBe(1)
    expect(answer.tokens).toEqual({ input: 0, output: 0, cached: 0 })
    expect(answer.duration_ms).toEqual({ p50: 60_000, p95: 60_000 })
  })

  it("takes p50 and p95 as the nearest rank, the duration at place ⌈p × n⌉", async () => {
    for (let index = 1; index <= 20; index++) {
      await runFact(`r${index}`, "run_started", daysAgo(2))
      await runFact(`r${index}`, "run_succeeded", daysAgo(2, 10, index * 100), { output: index })
    }
    await runFact("r21", "run_started", daysAgo(1))
    await runFact("r21", "run_failed", daysAgo(1, 10, 7), { incident: "i", detail: "x" })
    const answer = await analytics({})
    expect(answer.duration_ms).toEqual({ p50: 1000, p95: 1900 })
    const twoDaysAgo = answer.by_day.find((entry: { day: string }) => entry.day === dayAgo(2))
    expect(twoDaysAgo.duration_ms).toEqual({ p50: 1000, p95: 1900 })
    expect(answer.by_day.find((entry: { day: string }) => entry.day === dayAgo(1)).duration_ms).toEqual({
      p50: 7,
      p95: 7
    })
  })

  it("keeps one definition's runs with type and name, and lists each definition the most runs first, then by type and name", async () => {
    const other = { type: "computation", name: "sum" }
    const lookup = { type: "lookup", name: "find" }
    for (const [runId, definition] of [
      ["a", other],
      ["b", other],
      ["c", lookup],
      ["d", { type: "reasoning", name: "triage" }]
    ] as const) {
      await runFact(runId, "run_started", daysAgo(1), {}, definition)
      await runFact(runId, "run_succeeded", daysAgo(1, 11), { output: 1 }, definition)
    }
    const answer = await analytics({})
    expect(
      answer.by_function.map((entry: { type: string; name: string; runs: number }) => [
        entry.type,
        entry.name,
        entry.runs
      ])
    ).toEqual([
      ["computation", "sum", 2],
      ["lookup", "find", 1],
      ["reasoning", "triage", 1]
    ])
    expect((await analytics({ type: "computation" })).runs.total).toBe(2)
    expect((await analytics({ name: "find" })).runs.total).toBe(1)
    expect((await analytics({ type: "computation", name: "find" })).runs.total).toBe(0)
  })

  it("counts runs as run_definition records them, outside the window nowhere", async () => {
    await ok(
      "full",
      "create_definition",
      { type: "computation", name: "echo", source: "Echo", diagram: "none" },
      inFinance
    )
    await ok("full", "run_definition", { type: "computation", name: "echo", input: 1 }, inFinance)
    await refused("full", "run_definition", { type: "computation", name: "echo", input: { refuse: true } }, inFinance)
    await runFact("old", "run_started", daysAgo(8), {}, { type: "computation", name: "echo" })
    await runFact("old", "run_succeeded", daysAgo(8, 11), { output: 1 }, { type: "computation", name: "echo" })
    const answer = await analytics({ type: "computation", name: "echo" })
    expect(answer.runs).toEqual({ total: 2, succeeded: 1, failed: 0, rejected: 1 })
    expect(answer.by_day[6].runs.total).toBe(2)
    expect((await analytics({ days: 14 })).runs.total).toBe(3)
  })

  it("answers the same after the views are dropped and rebuilt from the ledger", async () => {
    await runFact("r1", "run_started", daysAgo(3))
    await runFact("r1", "model_call_answered", daysAgo(3, 10, 5), { cost_usd: 0.25 })
    await runFact("r1", "run_rejected", daysAgo(3, 10, 50), {
      reason: "unavailable",
      detail: "x",
      record: usage(3, 1, 2)
    })
    await runFact("r1", "run_started", daysAgo(2))
    await runFact("r1", "run_succeeded", daysAgo(2, 10, 70), { output: 1, record: usage(3, 1, 2) })
    await runFact("r2", "run_started", daysAgo(1))
    await runFact("r2", "run_failed", daysAgo(1, 10, 30), { incident: "i", detail: "x" })
    const before = await analytics({ days: 30 })
    expect(before.runs.total).toBe(2)
    await fixture.runtime.runPromise(Effect.flatMap(Views, (views) => views.rebuild))
    expect(await analytics({ days: 30 })).toEqual(before)
  })
})
