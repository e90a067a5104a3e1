import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlaybook } from "./newPlaybook.js"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"
import { asking, catchingCall, endedRun, saveAll, workflowNamed as workflow } from "./workflowDocuments.js"

/** Calls the interaction; `more` adds fields to the call task. */
const calling = (name: string, more = "") =>
  workflow(name, `  - ask:\n      call: run_definition\n      with: { type: interaction, name: ask }\n${more}`)

/** Calls the interaction and outputs the error its call raised, caught by a catch naming it (decision W6). */
const catching = catchingCall("interaction", "ask", {
  filter: "        errors:\n          with: { type: https://on.auto/problems/unanswered }\n"
})

onEveryStore("cancelling workflow runs and their callees over HTTP", (store) => {
  const clock = makeShiftedClock()
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store(), {}, clock.layer)
    base = await newPlaybook(server, "cancel")
    await saveAll(server, base, "interaction", [["ask", asking]])
    await saveAll(server, base, "workflow", [
      ["waits", calling("waits")],
      ["hurried", calling("hurried", "      timeout:\n        after: { milliseconds: 300 }\n")],
      ["catching", catching]
    ])
  }, 60_000)
  afterAll(() => server?.close())

  const ended = (runId: string) => endedRun(server, base, runId)
  const start = async (name: string) => {
    const started = await server.send("POST", `${base}/definitions/workflow/${name}/run`, {})
    expect(started.body.status, JSON.stringify(started.body)).toBe("started")
    return started.body.run_id as string
  }
  const calleeOf = (runId: string) =>
    waitFor(async () => {
      const runs = await server.send("GET", `${base}/runs?type=interaction`)
      return runs.body.runs.find((run: any) => run.within?.run_id === runId)
    }, 20_000)

  it("cancel_run ends the workflow cancelled/requested with its reason and cancels its callee (parent_ended)", async () => {
    const runId = await start("waits")
    const callee = await calleeOf(runId)
    const cancelled = await server.send("POST", `${base}/runs/${runId}/cancel`, { reason: "Order withdrawn" })
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200)
    expect(await ended(runId)).toMatchObject({
      status: "rejected",
      rejection: { reason: "cancelled", kind: "requested", detail: "Order withdrawn" }
    })
    expect(await ended(callee.run_id)).toMatchObject({
      status: "rejected",
      rejection: { reason: "cancelled", kind: "parent_ended" }
    })
    const again = await server.send("POST", `${base}/runs/${runId}/cancel`, {})
    expect(again.status).toBe(409)
  }, 60_000)

  it("a call whose wait passed cancels its callee with kind deadline", async () => {
    const runId = await start("hurried")
    const callee = await calleeOf(runId)
    expect(await ended(runId)).toMatchObject({ status: "rejected", rejection: { reason: "unavailable" } })
    expect(await ended(callee.run_id)).toMatchObject({
      status: "rejected",
      rejection: { reason: "cancelled", kind: "deadline" }
    })
  }, 60_000)

  it("a callee that expired unanswered raises PROB/unanswered 410 kind expired; uncaught, the run is unanswered", async () => {
    const caught = await start("catching")
    const uncaught = await start("waits")
    await calleeOf(caught)
    await calleeOf(uncaught)
    clock.shift(3_600_000 + 60_000)
    expect(await ended(caught)).toMatchObject({
      status: "succeeded",
      output: { type: "https://on.auto/problems/unanswered", status: 410, kind: "expired" }
    })
    expect(await ended(uncaught)).toMatchObject({
      status: "rejected",
      rejection: { reason: "unanswered", kind: "expired" }
    })
  }, 60_000)
})
