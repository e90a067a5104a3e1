import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { makeWorkflowRuntime, workflowSource } from "./workflowRunFixture.js"

let f: ReturnType<typeof makeWorkflowRuntime>
beforeEach(async () => {
  f = makeWorkflowRuntime()
  await f.setUp()
})
afterEach(() => f.runtime.dispose())

const doubler = `---
description: Doubles n
language: typescript
input:
  schema: { type: object, properties: { n: { type: number } }, required: [n] }
---
export default function (input: Input): Output {
  return { n: input.n * 2 }
}
`

describe("workflow runs", () => {
  it("a workflow of set tasks ends within its request, succeeded with its output", async () => {
    await f.saveWorkflow(
      "sets",
      workflowSource(
        `  - first:\n      set:\n        a: \${ $data.x + 1 }\n  - second:\n      set:\n        b: \${ $data.a * 10 }\n`
      )
    )
    const run = await f.ok("run_definition", { type: "workflow", name: "sets", input: { x: 4 } })
    expect(run).toMatchObject({ status: "succeeded", output: { b: 50 } })
    const history = await f.ok("get_run_history", { run_id: run.run_id })
    expect(history.events.map((event: any) => event.type)).toEqual([
      "run_started",
      "workflow_input_applied",
      "step_finished",
      "step_finished",
      "run_succeeded"
    ])
  })

  it("a workflow calls a computation function step after step", async () => {
    const saved = await f.saveFunction("computation", "double", doubler)
    expect(saved).toMatchObject({ _tag: "Right" })
    await f.saveWorkflow(
      "calls",
      workflowSource(
        `  - one:\n      call: run_definition\n      with:\n        type: computation\n        name: double\n        input: \${ $data }\n  - two:\n      call: run_definition\n      with:\n        type: computation\n        name: double\n        input: \${ $data }\n`
      )
    )
    const run = await f.ok("run_definition", { type: "workflow", name: "calls", input: { n: 3 } })
    const ended = run.status === "started" ? await f.ended(run.run_id) : run
    expect(ended).toMatchObject({ status: "succeeded", output: { n: 12 } })
    const callees = await f.ok("list_runs", { type: "computation" })
    expect(callees.runs).toHaveLength(2)
    expect(callees.runs[0].within).toMatchObject({ run_id: run.run_id })
  })

  it("a wait arms a timer that the host fires", async () => {
    await f.saveWorkflow(
      "waits",
      workflowSource("  - pause:\n      wait: { seconds: 1 }\n  - after:\n      set:\n        done: true\n")
    )
    const run = await f.ok("run_definition", { type: "workflow", name: "waits", input: {} })
    expect(run.status).toBe("started")
    expect(await f.ended(run.run_id)).toMatchObject({ status: "succeeded", output: { done: true } })
  })
})

describe("events and cancels", () => {
  const listening = workflowSource(
    `  - hear:\n      listen:\n        to:\n          one:\n            with:\n              type: com.example.decided\n  - answer:\n      set:\n        got: \${ $data[0].approved }\n`
  )

  it("a listen takes an event sent to its run; the same id again records nothing", async () => {
    await f.saveWorkflow("hears", listening)
    const run = await f.ok("run_definition", { type: "workflow", name: "hears", input: {} })
    expect(run.status).toBe("started")
    const sent = await f.ok("send_run_event", {
      run_id: run.run_id,
      event: { type: "com.example.decided", id: "d-1", data: { approved: true } }
    })
    expect(sent).toMatchObject({ run_id: run.run_id, event: { id: "d-1", source: "/callers/key:build-bot" } })
    expect(await f.ended(run.run_id)).toMatchObject({ status: "succeeded", output: { got: true } })
    const again = await f.call("send_run_event", {
      run_id: run.run_id,
      event: { type: "com.example.decided", id: "d-1" }
    })
    expect(again).toMatchObject({ _tag: "Left", left: { reason: "not_found" } })
  })

  it("a listen hears an event published to the playbook", async () => {
    await f.saveWorkflow("hears", listening)
    const run = await f.ok("run_definition", { type: "workflow", name: "hears", input: {} })
    const published = await f.ok("publish_event", {
      event: { source: "/ledger/eu", type: "com.example.decided", id: "p-1", data: { approved: false } }
    })
    expect(published).toMatchObject({ id: "p-1" })
    expect(await f.ended(run.run_id)).toMatchObject({ status: "succeeded", output: { got: false } })
    const repeat = await f.ok("publish_event", {
      event: { source: "/ledger/eu", type: "com.example.decided", id: "p-1", data: { approved: false } }
    })
    expect(repeat).toEqual(published)
    const other = await f.call("publish_event", {
      event: { source: "/ledger/eu", type: "com.example.decided", id: "p-1", data: { approved: true } }
    })
    expect(other).toMatchObject({ _tag: "Left", left: { reason: "conflict" } })
  })

  it("cancel_run ends a waiting workflow rejected, cancelled, requested", async () => {
    await f.saveWorkflow("hears", listening)
    const run = await f.ok("run_definition", { type: "workflow", name: "hears", input: {} })
    await f.ok("cancel_run", { run_id: run.run_id, reason: "Not needed" })
    expect(await f.ended(run.run_id)).toMatchObject({
      status: "rejected",
      rejection: { reason: "cancelled", kind: "requested", detail: "Not needed" }
    })
  })

  it("refuses a reserved type and an unknown field of a sent event", async () => {
    await f.saveWorkflow("hears", listening)
    const run = await f.ok("run_definition", { type: "workflow", name: "hears", input: {} })
    const refused = await f.call("send_run_event", { run_id: run.run_id, event: { type: "run_started", extra: 1 } })
    expect(refused).toMatchObject({
      _tag: "Left",
      left: { reason: "invalid_input", errors: [{ pointer: "/event/type" }, { pointer: "/event/extra" }] }
    })
  })
})
