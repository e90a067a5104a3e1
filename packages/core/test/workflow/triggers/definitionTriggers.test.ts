import { it } from "@effect/vitest"
import { RunLedger, Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Either, Layer, TestClock } from "effect"
import { describe, expect } from "vitest"
import { testSettings } from "../../interaction/interactionFixture.js"
import { eventually, helpersOn, settle, startTriggerRuntime, triggered, x } from "./triggerFixture.js"

/** After the real time: see scheduleTriggers.test.ts. */
const start = Date.parse("2027-01-04T00:00:00Z")

const allThree = `  on:
    any:
      - with: { type: com.example.invoice, data: '${x} $data.cents > 1000 }' }
      - with: { type: com.example.dispute, source: /crm }
  cron: 'CRON_TZ=Europe/Paris 0 7 * * 1-5'
  every: PT30M
`

/** A runtime without hosts: saves only. */
const savesOnly = Effect.gen(function* () {
  const store = yield* Layer.build(MemoryStore.layer)
  return yield* helpersOn(Context.merge(yield* Layer.build(RunLedger.layer(testSettings)), store))
})

describe("a workflow's triggers on its definition", () => {
  it.scoped("triggers in document order; triggers_since is the record that saved the version, while active", () =>
    Effect.gen(function* () {
      const t = yield* savesOnly
      yield* t.save("flow", triggered(allThree))
      const expected = [
        {
          kind: "event",
          reference: "/schedule/on",
          filters: [
            {
              reference: "/schedule/on/any/0",
              type: "com.example.invoice",
              attributes: { data: `${x} $data.cents > 1000 }` }
            },
            { reference: "/schedule/on/any/1", type: "com.example.dispute", attributes: { source: "/crm" } }
          ]
        },
        { kind: "cron", reference: "/schedule/cron", expression: "0 7 * * 1-5", time_zone: "Europe/Paris" },
        { kind: "every", reference: "/schedule/every", milliseconds: 1_800_000 }
      ]
      const created = (yield* t.factsOfType("definition_created"))[0]!
      const got = yield* t.ok("get_definition", { type: "workflow", name: "flow" })
      expect(got.triggers).toEqual(expected)
      expect(got.triggers_since).toBe(created.id)
      const listed = yield* t.ok("list_definitions", { type: "workflow" })
      expect(listed.definitions[0].triggers).toEqual(expected)
      expect(listed.definitions[0].triggers_since).toBeUndefined()
      yield* t.ok("update_definition", { type: "workflow", name: "flow", source: triggered("  every: PT1H\n") })
      const updated = (yield* t.factsOfType("definition_updated"))[0]!
      const next = yield* t.ok("get_definition", { type: "workflow", name: "flow" })
      expect(next.triggers).toEqual([{ kind: "every", reference: "/schedule/every", milliseconds: 3_600_000 }])
      expect(next.triggers_since).toBe(updated.id)
      yield* t.ok("pause_definition", { type: "workflow", name: "flow", reason: "quiet" })
      const paused = yield* t.ok("get_definition", { type: "workflow", name: "flow" })
      expect(paused.triggers).toHaveLength(1)
      expect(paused.triggers_since).toBeUndefined()
      yield* t.ok("resume_definition", { type: "workflow", name: "flow" })
      yield* t.ok("update_definition", {
        type: "workflow",
        name: "flow",
        source: `document:\n  dsl: '1.0.3'\n  namespace: test\n  name: flow\n  version: '1.0.0'\ndo:\n  - a:\n      set: { b: 1 }\n`
      })
      const plain = yield* t.ok("get_definition", { type: "workflow", name: "flow" })
      expect(plain.triggers).toBeUndefined()
      expect(plain.triggers_since).toBeUndefined()
    })
  )

  it.scoped(
    "versions: an unchanged schedule keeps its times and runs the new version; a changed one counts from its record; a removed one stops",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(start)
        const t = yield* startTriggerRuntime()
        yield* t.save("kept", triggered("  every: PT10M\n"))
        yield* t.save("changed", triggered("  every: PT10M\n"))
        yield* t.save("removed", triggered("  every: PT10M\n"))
        yield* settle
        yield* TestClock.setTime(start + 5 * 60_000)
        yield* t.ok("update_definition", {
          type: "workflow",
          name: "kept",
          source: triggered("  every: PT10M\n", "  - other:\n      set:\n        got: 2\n")
        })
        yield* t.ok("update_definition", { type: "workflow", name: "changed", source: triggered("  every: PT15M\n") })
        yield* t.ok("update_definition", {
          type: "workflow",
          name: "removed",
          source: `document:\n  dsl: '1.0.3'\n  namespace: test\n  name: flow\n  version: '1.0.0'\ndo:\n  - a:\n      set: { b: 1 }\n`
        })
        yield* settle
        yield* TestClock.setTime(start + 10 * 60_000)
        const [kept] = yield* eventually(t.runsOf("kept"), (runs) => runs.length === 1)
        expect(kept!.started.metadata.definition?.version).toBe(2)
        expect((kept!.started.data as any).input.schedule.due).toBe("2027-01-04T00:10:00.000Z")
        yield* settle
        expect(yield* t.runsOf("changed")).toHaveLength(0)
        yield* TestClock.setTime(start + 20 * 60_000)
        const [changed] = yield* eventually(t.runsOf("changed"), (runs) => runs.length === 1)
        expect((changed!.started.data as any).input.schedule.due).toBe("2027-01-04T00:20:00.000Z")
        expect(yield* t.runsOf("removed")).toHaveLength(0)
      })
  )

  it.scoped("the trigger views are rebuilt from the facts as they were", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(start)
      const t = yield* savesOnly
      yield* t.save("flow", triggered(allThree))
      yield* TestClock.adjust("7 minutes")
      yield* t.ok("update_definition", { type: "workflow", name: "flow", source: triggered("  every: PT30M\n") })
      yield* t.save("other", triggered("  cron: '0 7 * * *'\n"))
      yield* t.ok("pause_definition", { type: "workflow", name: "other", reason: "quiet" })
      const views = ["workflow_triggers", "trigger_due", "trigger_cursors"] as const
      const partitions = { workflow_triggers: "acme/finance", trigger_due: "due", trigger_cursors: "cursors" }
      const snapshot = t.run(
        Effect.flatMap(Views, (store) =>
          Effect.forEach(views, (view) => store.list(view, partitions[view], { direction: "ascending", limit: 100 }))
        )
      )
      const before = yield* snapshot
      expect(before[0]).toHaveLength(2)
      expect(before[1]!.map((doc) => [doc.id, doc.sort])).toEqual([
        ["acme/finance/flow#/schedule/every", "2027-01-04T00:30:00.000Z"]
      ])
      yield* t.run(Effect.flatMap(Views, (store) => store.rebuild))
      expect(yield* snapshot).toEqual(before)
    })
  )

  it.scoped(
    "a playbook holds at most 1,024 workflows with triggers: one more is refused with conflict",
    () =>
      Effect.gen(function* () {
        const t = yield* savesOnly
        for (let i = 0; i < 1_024; i++) yield* t.save(`flow-${i}`, triggered("  every: PT1H\n"))
        const refused = yield* t.call("create_definition", {
          type: "workflow",
          name: "one-more",
          source: triggered("  every: PT1H\n")
        })
        expect(Either.isLeft(refused) && refused.left.reason).toBe("conflict")
        yield* t.ok("update_definition", { type: "workflow", name: "flow-0", source: triggered("  every: PT2H\n") })
        yield* t.save(
          "plain",
          `document:\n  dsl: '1.0.3'\n  namespace: test\n  name: flow\n  version: '1.0.0'\ndo:\n  - a:\n      set: { b: 1 }\n`
        )
      }),
    120_000
  )
})
