import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ClientKind, connectClient, type Harness, harness, problemOf } from "./fixture.js"

/** A small computation function: sums a list of numbers. */
const sum = `---
description: Sums a list of numbers
language: typescript
input:
  schema:
    type: array
    items: { type: number }
---
export default function (input: Input): Output {
  return input.reduce((total, value) => total + value, 0);
}
`

let served: Harness
beforeAll(async () => {
  served = await harness()
})
afterAll(() => served.close())

describe.each<ClientKind>(["v2 at 2026-07-28", "v2 at 2025-06-18", "v1"])(
  "definitions and runs as tools, %s",
  (kind) => {
    it("creates, runs, reads and lists through the tools, with summaries and structured content", async () => {
      const client = await connectClient(kind, `${served.url}/mcp`)
      const playbook = `pb-${kind.replaceAll(/[^a-z0-9]/g, "")}`
      await client.callTool("create_playbook", { playbook, name: "Sums" })
      const tools = (await client.listTools()).map((tool) => tool.name)
      for (const name of [
        "create_definition",
        "run_definition",
        "get_run",
        "list_runs",
        "list_playbook_events",
        "get_event"
      ])
        expect(tools).toContain(name)
      expect(tools).not.toContain("get_run_history")
      const created = await client.callTool("create_definition", {
        playbook,
        type: "computation",
        name: "sum-up",
        source: sum,
        diagram: "none"
      })
      expect(created.isError).toBeFalsy()
      expect(created.content[0].text).toBe(
        "Created the computation function “sum-up”. What it does: Sums a list of numbers It has been saved but has not been run yet."
      )
      expect(created.structuredContent).toMatchObject({ name: "sum-up", version: 1 })
      const run = await client.callTool("run_definition", {
        playbook,
        type: "computation",
        name: "sum-up",
        input: [1, 2, 3.5]
      })
      expect(run.structuredContent).toMatchObject({ status: "succeeded", output: 6.5 })
      expect(run.content[0].text).toContain("finished. Its result: 6.5")
      expect(JSON.parse(run.content[1].text)).toEqual(run.structuredContent)
      const read = await client.callTool("get_run", { playbook, run_id: run.structuredContent.run_id })
      expect(read.structuredContent.output).toBe(6.5)
      const listed = await client.callTool("list_runs", { playbook })
      expect(listed.structuredContent.runs).toHaveLength(1)
      const events = await client.callTool("list_playbook_events", { playbook, run_id: run.structuredContent.run_id })
      expect(events.structuredContent.events.map((event: any) => event.type)).toEqual(["run_succeeded", "run_started"])
      const refused = await client.callTool("run_definition", {
        playbook,
        type: "computation",
        name: "sum-up",
        input: ["x"]
      })
      expect(refused.isError).toBe(true)
      expect(problemOf(refused)).toMatchObject({ reason: "invalid_input", kind: "input_schema" })
      expect(problemOf(refused).errors[0].pointer).toBe("/input/0")
      await client.close()
    })
  }
)

describe("the definition lifecycle, retries and events as tools", () => {
  it("updates, pauses, resumes, retires and restores; retries under a run id; reads one event", async () => {
    const client = await connectClient("v2 at 2026-07-28", `${served.url}/mcp`)
    const playbook = "pb-lifecycle"
    await client.callTool("create_playbook", { playbook, name: "Lifecycle" })
    const definition = { playbook, type: "computation", name: "sum-up" }
    await client.callTool("create_definition", { ...definition, source: sum, diagram: "none" })
    const updated = await client.callTool("update_definition", {
      ...definition,
      source: sum,
      diagram: "flowchart TD\n  numbers --> total",
      overview: "Adds the numbers up."
    })
    expect(updated.structuredContent).toMatchObject({ version: 2, overview: "Adds the numbers up." })
    const paused = await client.callTool("pause_definition", { ...definition, reason: "Checking" })
    expect(paused.structuredContent).toMatchObject({ status: "paused", paused_reason: "Checking" })
    const refused = await client.callTool("run_definition", { ...definition, input: [1] })
    expect(problemOf(refused)).toMatchObject({ reason: "conflict", kind: "paused" })
    expect((await client.callTool("resume_definition", definition)).structuredContent.status).toBe("active")
    const run_id = crypto.randomUUID()
    const run = await client.callTool("run_definition", { ...definition, input: [1, 2], run_id })
    const again = await client.callTool("run_definition", { ...definition, input: [1, 2], run_id })
    expect([run.structuredContent.output, again.structuredContent.output]).toEqual([3, 3])
    const other = await client.callTool("run_definition", { ...definition, input: [2], run_id })
    expect(problemOf(other).reason).toBe("conflict")
    const events = await client.callTool("list_playbook_events", { playbook, run_id })
    const [succeeded] = events.structuredContent.events
    const event = await client.callTool("get_event", { playbook, event_id: succeeded.id })
    expect(event.structuredContent).toMatchObject({ id: succeeded.id, type: "run_succeeded", data: { output: 3 } })
    expect((await client.callTool("retire_definition", definition)).structuredContent.status).toBe("retired")
    const listed = await client.callTool("list_definitions", { playbook, type: "computation" })
    expect(listed.structuredContent.definitions).toEqual([])
    const restored = await client.callTool("restore_definition", definition)
    expect(restored.structuredContent).toMatchObject({ status: "paused", version: 2 })
    const read = await client.callTool("get_definition", definition)
    expect(read.structuredContent).toMatchObject({ status: "paused", diagram: "flowchart TD\n  numbers --> total" })
    const unknown = await client.callTool("cancel_run", { playbook, run_id: crypto.randomUUID() })
    expect(problemOf(unknown).reason).toBe("not_found")
    await client.close()
  })
})
