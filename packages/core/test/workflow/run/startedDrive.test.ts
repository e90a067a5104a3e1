import { Ledger, Views } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeWorkflowRuntime, workflowSource } from "./workflowRunFixture.js"

/** The views each `get` was asked for, in order. */
const asked: Array<string> = []

/** The streams each `readStream` read, in order. */
const read: Array<string> = []

/** The memory store, its views counting what each `get` asks for and its ledger each stream it reads. */
const countingStore = Layer.map(MemoryStore.layer, (context) => {
  const views = Context.get(context, Views)
  const ledger = Context.get(context, Ledger)
  return context.pipe(
    Context.add(
      Views,
      Views.of({
        ...views,
        get: (key) =>
          Effect.suspend(() => {
            asked.push(key.view)
            return views.get(key)
          })
      })
    ),
    Context.add(
      Ledger,
      Ledger.of({
        ...ledger,
        readStream: (stream, options) =>
          Effect.suspend(() => {
            read.push(stream)
            return ledger.readStream(stream, options)
          })
      })
    )
  )
})

const f = makeWorkflowRuntime(countingStore)

beforeAll(f.setUp)
afterAll(() => f.runtime.dispose())

describe("a workflow's drive within the request that started it", () => {
  it("takes its first input without reading the run's state or due documents, which its start just made, and answers from the runs view", async () => {
    await f.saveWorkflow("sets", workflowSource(`  - one:\n      set:\n        n: \${ $data.n + 1 }\n`))
    asked.length = 0
    read.length = 0
    const run = await f.ok("run_definition", { type: "workflow", name: "sets", input: { n: 1 } })
    expect(run).toMatchObject({ status: "succeeded", output: { n: 2 } })
    expect(asked.filter((view) => view === "workflow_states" || view === "workflow_due")).toEqual([])
    // Its stream is not read: its id was made for the request, so no run was there already (ADR 0416); the answer
    // comes from the runs view, however many inputs the drive recorded.
    expect(read.filter((stream) => stream.endsWith(`/runs/${run.run_id}`))).toEqual([])
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
