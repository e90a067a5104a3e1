import { it } from "@effect/vitest"
import { RunLedger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Layer, TestClock } from "effect"
import { describe, expect } from "vitest"
import * as HostWakeups from "../../../src/host/HostWakeups.js"
import { triggeredRunId } from "../../../src/workflow/triggers/triggerFacts.js"
import { triggerHostLayer } from "../../../src/workflow/triggers/triggerHost.js"
import { testSettings } from "../../interaction/interactionFixture.js"
import { eventually, helpersOn, settle, startTriggerRuntime, triggered } from "./triggerFixture.js"

/**
 * Where the tests' clock starts: after the real time, since the engine bounds an input's expressions by a deadline
 * taken from the Effect clock and checked against the wall clock.
 */
const start = Date.parse("2027-01-04T00:00:00Z")

/** Moves the TestClock to a time, letting the hosts settle before and after. */
const moveTo = (iso: string) =>
  Effect.gen(function* () {
    yield* settle
    yield* TestClock.setTime(Date.parse(iso))
    yield* settle
  })

/**
 * Moving the TestClock over half an hour wakes every host's one-second loop 1,800 times, each on the real clock's
 * scheduler: a test that does so twice takes 20–30 s on a loaded machine, above Vitest's default bound.
 */
const hoursOfTicks = 120_000

describe("schedule triggers under the TestClock", () => {
  it.scoped("every: a run at each multiple of the period after activation, acting as the playbook", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const t = yield* startTriggerRuntime()
      yield* t.save("tick", triggered("  every: PT1M\n"))
      yield* moveTo("2027-01-04T00:01:00Z")
      const [first] = yield* eventually(t.runsOf("tick"), (runs) => runs.length === 1)
      expect(first!.run_id).toBe(
        triggeredRunId("acme", "finance", "tick", 1, "/schedule/every", "2027-01-04T00:01:00.000Z")
      )
      const run = yield* t.ok("get_run", { run_id: first!.run_id })
      expect(run).toMatchObject({
        status: "succeeded",
        started_by: { id: "playbook:finance" },
        output: { got: { schedule: { due: "2027-01-04T00:01:00.000Z" } } }
      })
      expect(first!.started.metadata.trigger).toEqual({ kind: "every", reference: "/schedule/every" })
      const definition = yield* t.ok("get_definition", { type: "workflow", name: "tick" })
      expect(first!.started.metadata.causation_id).toBe(definition.triggers_since)
      const history = yield* t.ok("get_run_history", { run_id: first!.run_id })
      expect(history.events[0].summary).toContain("every schedule")
      yield* moveTo("2027-01-04T00:02:00Z")
      const runs = yield* eventually(t.runsOf("tick"), (found) => found.length === 2)
      expect(runs.map((found) => (found.started.data as any).input.schedule.due)).toEqual([
        "2027-01-04T00:01:00.000Z",
        "2027-01-04T00:02:00.000Z"
      ])
    })
  )

  it.scoped("after downtime only the latest missed time runs; the rest are counted in reaction_refused", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const store = yield* Layer.build(MemoryStore.layer)
      const core = Context.merge(yield* Layer.build(RunLedger.layer(testSettings)), store)
      const t = yield* helpersOn(core)
      yield* t.save("tick", triggered("  every: PT1M\n"))
      yield* TestClock.setTime(Date.parse("2027-01-04T00:05:30Z"))
      yield* Layer.build(
        triggerHostLayer.pipe(Layer.provide(HostWakeups.layer), Layer.provide(Layer.succeedContext(core)))
      )
      const runs = yield* eventually(t.runsOf("tick"), (found) => found.length === 1)
      expect((runs[0]!.started.data as any).input).toEqual({ schedule: { due: "2027-01-04T00:05:00.000Z" } })
      yield* moveTo("2027-01-04T00:06:10Z")
      const [refused] = yield* eventually(t.factsOfType("reaction_refused"), (facts) => facts.length === 1)
      expect(refused!.data).toMatchObject({
        minute: "2027-01-04T00:05",
        count: 4,
        trigger: { kind: "every", reference: "/schedule/every" }
      })
      expect(refused!.metadata.definition).toEqual({ type: "workflow", name: "tick", version: 1 })
      const listed = yield* t.ok("list_playbook_events", { type: "reaction_refused" })
      expect(listed.events).toHaveLength(1)
      expect(yield* eventually(t.runsOf("tick"), (found) => found.length === 2)).toHaveLength(2)
    })
  )

  it.scoped("one run at a time: a time due while the earlier run waits is skipped and recorded", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const t = yield* startTriggerRuntime()
      yield* t.save("slow", triggered("  every: PT1M\n", "  - pause:\n      wait: PT150S\n"))
      yield* moveTo("2027-01-04T00:01:00Z")
      const [first] = yield* eventually(t.runsOf("slow"), (found) => found.length === 1)
      expect(first!.status).toBe("started")
      yield* moveTo("2027-01-04T00:02:00Z")
      const [passed] = yield* eventually(t.factsOfType("schedule_passed"), (facts) => facts.length === 1)
      expect(passed!.data).toEqual({
        reference: "/schedule/every",
        due: "2027-01-04T00:02:00.000Z",
        count: 1,
        reason: "running"
      })
      expect(yield* t.runsOf("slow")).toHaveLength(1)
      yield* moveTo("2027-01-04T00:03:30Z")
      yield* eventually(t.ok("get_run", { run_id: first!.run_id }), (run) => run.status === "succeeded")
      yield* moveTo("2027-01-04T00:04:00Z")
      const runs = yield* eventually(t.runsOf("slow"), (found) => found.length === 2)
      expect((runs[1]!.started.data as any).input.schedule.due).toBe("2027-01-04T00:04:00.000Z")
    })
  )

  it.scoped(
    "cron in a time zone: local times, and a time the daylight-saving gap skips is not due",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2027-03-28T00:00:00Z"))
        const t = yield* startTriggerRuntime()
        yield* t.save("nightly", triggered("  cron: 'CRON_TZ=Europe/Paris 30 1,2,3 * * *'\n"))
        yield* moveTo("2027-03-28T00:30:00Z")
        yield* eventually(t.runsOf("nightly"), (found) => found.length === 1)
        yield* moveTo("2027-03-28T01:15:00Z")
        expect(yield* t.runsOf("nightly")).toHaveLength(1)
        yield* moveTo("2027-03-28T01:30:00Z")
        const runs = yield* eventually(t.runsOf("nightly"), (found) => found.length === 2)
        expect(runs.map((found) => (found.started.data as any).input.schedule.due)).toEqual([
          "2027-03-28T00:30:00.000Z",
          "2027-03-28T01:30:00.000Z"
        ])
        expect(runs[0]!.started.metadata.trigger).toEqual({ kind: "cron", reference: "/schedule/cron" })
      }),
    hoursOfTicks
  )

  it.scoped(
    "a paused workflow starts nothing, resuming makes nothing up, and a retired one stops",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(start)
        const t = yield* startTriggerRuntime()
        yield* t.save("tick", triggered("  every: PT10M\n"))
        yield* t.ok("pause_definition", { type: "workflow", name: "tick", reason: "quiet" })
        yield* moveTo("2027-01-04T00:25:00Z")
        expect(yield* t.runsOf("tick")).toHaveLength(0)
        yield* t.ok("resume_definition", { type: "workflow", name: "tick" })
        yield* moveTo("2027-01-04T00:29:00Z")
        expect(yield* t.runsOf("tick")).toHaveLength(0)
        yield* moveTo("2027-01-04T00:30:00Z")
        const runs = yield* eventually(t.runsOf("tick"), (found) => found.length === 1)
        expect((runs[0]!.started.data as any).input.schedule.due).toBe("2027-01-04T00:30:00.000Z")
        yield* t.ok("retire_definition", { type: "workflow", name: "tick" })
        yield* moveTo("2027-01-04T00:50:00Z")
        expect(yield* t.runsOf("tick")).toHaveLength(1)
      }),
    hoursOfTicks
  )
})
