import { it } from "@effect/vitest"
import { RunLedger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Layer, TestClock } from "effect"
import { describe, expect } from "vitest"
import * as HostWakeups from "../../../src/host/HostWakeups.js"
import { triggeredRunId } from "../../../src/workflow/triggers/triggerFacts.js"
import { triggerHostLayer } from "../../../src/workflow/triggers/triggerHost.js"
import { testSettings } from "../../interaction/interactionFixture.js"
import { eventually, helpersOn, settle, startTriggerRuntime, triggered, x } from "./triggerFixture.js"

/** After the real time: see scheduleTriggers.test.ts. */
const start = Date.parse("2027-01-04T00:00:00Z")

const on = (filters: string) => `  on:\n    any:\n${filters}`

/** A task list that emits one event of a type. */
const emits = (type: string) =>
  `  - tell:\n      emit:\n        event:\n          with: { type: ${type}, source: 'urn:test', data: { n: 1 } }\n`

const publish = (t: { ok: (operation: string, input: unknown) => Effect.Effect<any> }, type: string, data?: unknown) =>
  t.ok("publish_event", { event: { source: "/ledger", type, ...(data === undefined ? {} : { data }) } })

describe("event triggers under the TestClock", () => {
  it.scoped("a published event a filter matches starts one run with the whole event as input, caused by it", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const t = yield* startTriggerRuntime()
      yield* t.save(
        "big",
        triggered(
          on(
            `      - with: { type: com.example.invoice, data: '${x} $data.cents > 1000 }' }\n      - with: { type: com.example.dispute }\n`
          )
        )
      )
      yield* publish(t, "com.example.invoice", { cents: 5 })
      const published = yield* publish(t, "com.example.invoice", { cents: 5000 })
      const [run] = yield* eventually(t.runsOf("big"), (runs) => runs.length === 1)
      const [record] = (yield* t.factsOfType("event_published")).filter(
        (fact) => (fact.data as any).event_id === published.id
      )
      expect(run!.run_id).toBe(triggeredRunId("acme", "finance", "big", 1, "/schedule/on", record!.id))
      expect(run!.started.metadata).toMatchObject({
        trigger: { kind: "event", reference: "/schedule/on" },
        depth: 1,
        causation_id: record!.id,
        by: "playbook:finance"
      })
      expect((run!.started.data as any).input).toEqual([
        expect.objectContaining({ type: "com.example.invoice", source: "/ledger", data: { cents: 5000 } })
      ])
      yield* publish(t, "com.example.dispute")
      yield* eventually(t.runsOf("big"), (runs) => runs.length === 2)
      yield* settle
      expect(yield* t.runsOf("big")).toHaveLength(2)
    })
  )

  it.scoped("a workflow never reacts to its own runs or the events they emit", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const t = yield* startTriggerRuntime()
      yield* t.save(
        "echo",
        triggered(on("      - with: { type: ping }\n      - with: { type: run_succeeded }\n"), emits("ping"))
      )
      yield* publish(t, "ping")
      yield* eventually(t.runsOf("echo"), (runs) => runs.length === 1 && runs[0]!.status === "succeeded")
      yield* settle
      yield* settle
      expect(yield* t.runsOf("echo")).toHaveLength(1)
    })
  )

  it.scoped("a chain of reactions stops past depth 8, recorded as reaction_refused", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const t = yield* startTriggerRuntime()
      yield* t.save("left", triggered(on("      - with: { type: a }\n"), emits("b")))
      yield* t.save("right", triggered(on("      - with: { type: b }\n"), emits("a")))
      yield* publish(t, "a")
      const count = Effect.map(Effect.all([t.runsOf("left"), t.runsOf("right")]), ([left, right]) => [
        ...left,
        ...right
      ])
      const runs = yield* eventually(count, (found) => found.length === 8)
      expect(runs.map((run) => run.started.metadata.depth).toSorted()).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
      yield* settle
      expect(yield* count).toHaveLength(8)
      yield* TestClock.adjust("61 seconds")
      const [refused] = yield* eventually(t.factsOfType("reaction_refused"), (facts) => facts.length === 1)
      expect(refused!.data).toMatchObject({ count: 1, trigger: { kind: "event", reference: "/schedule/on" } })
      expect((refused!.data as any).reason).toContain("9 reactions deep")
    })
  )

  it.scoped("the rate guard: 60 starts a minute, the rest queued and started in the next minute", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const t = yield* startTriggerRuntime()
      yield* t.save("busy", triggered(on("      - with: { type: tick }\n")))
      for (let i = 0; i < 64; i++) yield* publish(t, "tick", { i })
      yield* eventually(t.factsOfType("trigger_start_queued"), (facts) => facts.length === 4)
      expect(yield* t.runsOf("busy")).toHaveLength(60)
      yield* settle
      yield* TestClock.adjust("1 minute")
      const runs = yield* eventually(t.runsOf("busy"), (found) => found.length === 64)
      expect(new Set(runs.map((run) => run.run_id)).size).toBe(64)
    })
  )

  it.scoped(
    "versions: a changed filter applies from its record; a fact recorded before it starts the old version",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(start)
        const store = yield* Layer.build(MemoryStore.layer)
        const core = Context.merge(yield* Layer.build(RunLedger.layer(testSettings)), store)
        const t = yield* helpersOn(core)
        yield* t.save("flow", triggered(on("      - with: { type: x }\n")))
        yield* publish(t, "x")
        yield* t.ok("update_definition", {
          type: "workflow",
          name: "flow",
          source: triggered(on("      - with: { type: y }\n"))
        })
        yield* publish(t, "x")
        yield* publish(t, "y")
        yield* Layer.build(
          triggerHostLayer.pipe(Layer.provide(HostWakeups.layer), Layer.provide(Layer.succeedContext(core)))
        )
        const runs = yield* eventually(t.runsOf("flow"), (found) => found.length === 2)
        expect(
          runs
            .map((run) => [run.started.metadata.definition?.version, (run.started.data as any).input[0].type])
            .toSorted((left, right) => Number(left[0]) - Number(right[0]))
        ).toEqual([
          [1, "x"],
          [2, "y"]
        ])
        yield* settle
        expect(yield* t.runsOf("flow")).toHaveLength(2)
      })
  )

  it.scoped("two instances on one store start each event's and each due time's run once", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const store = yield* Layer.build(MemoryStore.layer)
      const first = yield* helpersOn(yield* Layer.build(RunLedger.onStore(Layer.succeedContext(store), testSettings)))
      yield* Layer.build(RunLedger.onStore(Layer.succeedContext(store), testSettings))
      yield* first.save("both", triggered(`${on("      - with: { type: go }\n")}  every: PT1M\n`))
      for (let i = 0; i < 5; i++) yield* publish(first, "go", { i })
      yield* settle
      yield* TestClock.adjust("1 minute")
      const runs = yield* eventually(first.runsOf("both"), (found) => found.length === 6)
      yield* settle
      expect(yield* first.runsOf("both")).toHaveLength(6)
      for (const run of runs) {
        const facts = yield* first.facts(run.run_id)
        expect(facts.filter((fact: any) => fact.type === "run_started")).toHaveLength(1)
      }
      expect(runs.filter((run) => (run.started.metadata.trigger as any).kind === "every")).toHaveLength(1)
    })
  )
})
