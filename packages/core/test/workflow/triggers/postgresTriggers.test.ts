import { RunLedger } from "@runledger/core"
import * as PostgresStore from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, Layer } from "effect"
import { expect, it } from "vitest"
import { testSettings } from "../../interaction/interactionFixture.js"
import { eventually, helpersOn, settle, triggered } from "./triggerFixture.js"

postgresSuite("event triggers on two instances", "alongside", (database) => {
  const store = () => PostgresStore.layer({ url: database.url, schema: database.schema })

  it("each event starts its run once though both instances' hosts match it; a retired workflow starts nothing", async () => {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const a = yield* helpersOn(yield* Layer.build(RunLedger.onStore(store(), testSettings)))
          yield* Layer.build(RunLedger.onStore(store(), testSettings))
          yield* a.save("both", triggered("  on:\n    one:\n      with: { type: go }\n"))
          for (let i = 0; i < 5; i++)
            yield* a.ok("publish_event", { event: { source: "/erp", type: "go", data: { i } } })
          const runs = yield* eventually(a.runsOf("both"), (found) => found.length === 5)
          for (const run of runs)
            expect((yield* a.facts(run.run_id)).filter((fact: any) => fact.type === "run_started")).toHaveLength(1)
          expect(runs.map((run) => (run.started.data as any).input[0].data.i).toSorted()).toEqual([0, 1, 2, 3, 4])
          yield* a.ok("retire_definition", { type: "workflow", name: "both" })
          yield* a.ok("publish_event", { event: { source: "/erp", type: "go", data: { i: 9 } } })
          yield* settle
          yield* settle
          expect(yield* a.runsOf("both")).toHaveLength(5)
        })
      )
    )
  }, 60_000)
})
