import { Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeWorkflowRuntime, workflowSource } from "./workflowRunFixture.js"

/** The views each `get` was asked for, in order. */
const asked: Array<string> = []

/** The memory store, its views counting what each `get` asks for. */
const countingStore = Layer.map(MemoryStore.layer, (context) => {
  const views = Context.get(context, Views)
  return Context.add(
    context,
    Views,
    Views.of({
      ...views,
      get: (key) =>
        Effect.suspend(() => {
          asked.push(key.view)
          return views.get(key)
        })
    })
  )
})

const f = makeWorkflowRuntime(countingStore)

beforeAll(f.setUp)
afterAll(() => f.runtime.dispose())

describe("a workflow's drive within the request that started it", () => {
  it("takes its first input without reading the run's state or due documents, which its start just made", async () => {
    await f.saveWorkflow("sets", workflowSource(`  - one:\n      set:\n        n: \${ $data.n + 1 }\n`))
    asked.length = 0
    const run = await f.ok("run_definition", { type: "workflow", name: "sets", input: { n: 1 } })
    expect(run).toMatchObject({ status: "succeeded", output: { n: 2 } })
    expect(asked.filter((view) => view === "workflow_states" || view === "workflow_due")).toEqual([])
  })

  it("a drive after the request (the host's, when a timer is due) loads both documents", async () => {
    await f.saveWorkflow(
      "waits",
      workflowSource("  - pause:\n      wait:\n        milliseconds: 50\n  - done:\n      set:\n        ok: true\n")
    )
    asked.length = 0
    const run = await f.ok("run_definition", { type: "workflow", name: "waits", input: {} })
    expect(run.status).toBe("started")
    const ended = await f.ended(run.run_id)
    expect(ended).toMatchObject({ status: "succeeded", output: { ok: true } })
    expect(asked).toEqual(expect.arrayContaining(["workflow_states", "workflow_due"]))
  })
})
