import { Ledger } from "@runledger/core"
import { Effect } from "effect"
import { afterEach, beforeEach, expect, it } from "vitest"
import { type ActivityFixture, makeActivityFixture } from "./activityFixture.js"

let f: ActivityFixture
beforeEach(async () => {
  f = await makeActivityFixture()
  await f.save("computation", "echo", "Echoes")
})
afterEach(() => f.runtime.dispose())

/** Records a run of echo that ends as `ending`, started by a workflow's call where `calledBy` is given. */
const record = (runId: string, ending: "run_succeeded" | "run_failed", calledBy?: unknown) =>
  f.runtime.runPromise(
    Effect.flatMap(Ledger, (ledger) => {
      const metadata = {
        correlation_id: runId,
        causation_id: null,
        at: new Date().toISOString(),
        by: "playbook:finance",
        run_id: runId,
        definition: { type: "computation", name: "echo", version: 1 },
        ...(calledBy === undefined ? {} : { called_by: calledBy }),
        trigger: { kind: "cron", reference: "/schedule/cron" }
      }
      const started = {
        input: {},
        input_sha256: "x",
        calls_tools: false,
        finishes_later: false,
        started_by: { id: "playbook:finance", name: "finance" },
        attempt: 1
      }
      return ledger.append([
        {
          stream: `playbook/acme/finance/runs/${runId}`,
          expected: 0,
          facts: [
            { id: `${runId}-1`, type: "run_started", data: started, metadata },
            {
              id: `${runId}-2`,
              type: ending,
              data: ending === "run_failed" ? { incident: "i", detail: "broke" } : { output: 1, record: null },
              metadata
            }
          ]
        }
      ])
    })
  )

it("a run a workflow's call started has no new or broken row; the trigger of one a trigger started is shown", async () => {
  const call = { run_id: "0199a3c4-7d2e-7c1a-9b3f-000000000000", reference: "/do/0/call", run: 1 }
  await record("0199a3c4-7d2e-7c1a-9b3f-000000000001", "run_succeeded", call)
  await record("0199a3c4-7d2e-7c1a-9b3f-000000000002", "run_failed", call)
  expect((await f.list({ kind: "broken" })).rows).toEqual([])
  expect((await f.list({ kind: "new" })).rows.filter((row: any) => row.run_id !== null)).toEqual([])
  await record("0199a3c4-7d2e-7c1a-9b3f-000000000003", "run_succeeded")
  const [row] = (await f.list({ kind: "new" })).rows
  expect(row).toMatchObject({
    run_id: "0199a3c4-7d2e-7c1a-9b3f-000000000003",
    by: "playbook:finance",
    trigger: { kind: "cron", reference: "/schedule/cron" }
  })
})

it("a cancelled run is neither a failure nor a success", async () => {
  await f.run("echo", { refuse: true })
  const runId = "0199a3c4-7d2e-7c1a-9b3f-000000000009"
  await f.runtime.runPromise(
    Effect.flatMap(Ledger, (ledger) =>
      ledger.append([
        {
          stream: `playbook/acme/finance/runs/${runId}`,
          expected: 0,
          facts: [
            {
              id: `${runId}-1`,
              type: "run_rejected",
              data: { reason: "cancelled", kind: "requested", detail: "Cancelled." },
              metadata: {
                correlation_id: runId,
                causation_id: null,
                at: new Date().toISOString(),
                by: "key:build-bot",
                run_id: runId,
                definition: { type: "computation", name: "echo", version: 1 }
              }
            }
          ]
        }
      ])
    )
  )
  expect((await f.list({ kind: "broken" })).rows.map((row: any) => row.detail)).toEqual(["refuse: is refused."])
})
