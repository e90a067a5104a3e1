import { Ledger, Views } from "@runledger/core"
import * as PostgresStore from "@runledger/store-postgres"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { Effect, Option } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { workflowStatesPartition, workflowStatesView } from "../../../src/workflow/run/workflowStatesProjection.js"
import { makeWorkflowRuntime, workflowSource } from "./workflowRunFixture.js"

/** A run that takes `com.example.tick` events one after another for ever (each one input), counting them. */
const loop = workflowSource(
  "  - hear:\n      listen:\n        to:\n          one:\n            with:\n              type: com.example.tick\n" +
    `  - count:\n      set:\n        n: \${ $data[0].n }\n      then: hear\n`
)

/** The ids of the events the cases send: long, as a sender's UUIDs are, so a kept list of them would show. */
const tickId = (n: number) => `tick-${String(n).padStart(4, "0")}-6f1c2b7e-0d4a-4c55-9a3e-1b2c3d4e5f60`

/**
 * ADR 0420: the ids of the events a run took are kept beside its state (`workflow_seen`), not in it, so the state a
 * run reads and writes at each input does not grow with the events it took; a repeat is still taken once.
 */
const seenEventCases = (open: () => ReturnType<typeof makeWorkflowRuntime>, durable: boolean) => {
  let f: ReturnType<typeof makeWorkflowRuntime>
  afterEach(() => f?.runtime.dispose())

  /** The run's state document as its drive reads it, as JSON text. */
  const stateText = async (runId: string) => {
    const found = await f.runtime.runPromise(
      Effect.flatMap(Views, (views) =>
        views.get({
          view: workflowStatesView,
          partition: workflowStatesPartition,
          id: `playbook/acme/flows/runs/${runId}`
        })
      )
    )
    return JSON.stringify(Option.getOrThrow(found).data)
  }

  /** How many inputs the run recorded (its `workflow_input_applied` facts). */
  const inputsOf = async (runId: string) =>
    (
      await f.runtime.runPromise(
        Effect.flatMap(Ledger, (ledger) => ledger.readStream(`playbook/acme/flows/runs/${runId}`))
      )
    ).filter((fact) => fact.type === "workflow_input_applied").length

  const send = (runId: string, n: number) =>
    f.ok("send_run_event", { run_id: runId, event: { type: "com.example.tick", id: tickId(n), data: { n } } })

  it(`keeps a run's state as large after 40 events as after 5, and takes each id once${durable ? ", after a restart too" : ""}`, async () => {
    f = open()
    await f.setUp()
    await f.saveWorkflow("loop", loop)
    const run = await f.ok("run_definition", { type: "workflow", name: "loop", input: {} })
    for (let n = 1; n <= 5; n++) await send(run.run_id, n)
    const afterFive = await stateText(run.run_id)
    for (let n = 6; n <= 40; n++) await send(run.run_id, n)
    const afterForty = await stateText(run.run_id)
    expect(afterForty).not.toContain(tickId(1))
    // Counters gain a digit or two; 35 more ids kept in the state would add about 2,200 bytes.
    expect(afterForty.length - afterFive.length).toBeLessThan(40)
    const inputs = await inputsOf(run.run_id)
    for (const n of [1, 17, 40]) await send(run.run_id, n)
    expect(await inputsOf(run.run_id)).toBe(inputs)
    if (durable) {
      // A runtime that never saw the run: the ids come from the store, not from the first one's memory.
      await f.runtime.dispose()
      f = open()
      for (const n of [40, 2]) await send(run.run_id, n)
      expect(await inputsOf(run.run_id)).toBe(inputs)
    }
    await send(run.run_id, 41)
    expect(await inputsOf(run.run_id)).toBe(inputs + 1)
    expect(await stateText(run.run_id)).toContain('"n":41')
  }, 60_000)
}

describe("events a run took, kept beside its state (memory store)", () => {
  seenEventCases(() => makeWorkflowRuntime(), false)
})

postgresSuite("events a run took, kept beside its state", "alongside", (database) => {
  seenEventCases(() => makeWorkflowRuntime(PostgresStore.layer({ url: database.url, schema: database.schema })), true)
})
