import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ClientKind, connectClient, type Harness, harness, problemOf } from "./fixture.js"

/** A workflow that listens for one event of type a and one of type b, and outputs their data in that order. */
const listening = `document:
  dsl: '1.0.3'
  namespace: test
  name: hear
  version: '1.0.0'
do:
  - hear:
      listen:
        to:
          all:
            - with: { type: com.example.a }
            - with: { type: com.example.b }
`

/** Polls until `read` answers something, for at most 20 s. */
const waitFor = async <A>(read: () => Promise<A | undefined>): Promise<A> => {
  for (let attempt = 0; attempt < 200; attempt++) {
    const found = await read()
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error("nothing came within 20 s")
}

let served: Harness
beforeAll(async () => {
  served = await harness()
})
afterAll(() => served.close())

describe.each<ClientKind>(["v2 at 2026-07-28", "v2 at 2025-06-18", "v1"])("a workflow run over MCP, %s", (kind) => {
  it("saves and runs a workflow that listens, takes a sent and a published event, and shows its steps", async () => {
    const client = await connectClient(kind, `${served.url}/mcp`)
    const playbook = `flows-${kind.replaceAll(/[^a-z0-9]/g, "")}`
    expect((await client.callTool("create_playbook", { playbook, name: "Flows" })).isError).toBeFalsy()
    const tools = (await client.listTools()).map((tool) => tool.name)
    for (const name of ["send_run_event", "publish_event", "get_run", "list_playbook_events", "get_event"])
      expect(tools).toContain(name)
    expect(tools).not.toContain("get_run_history")
    const created = await client.callTool("create_definition", {
      playbook,
      type: "workflow",
      name: "hear",
      source: listening
    })
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy()
    const started = await client.callTool("run_definition", { playbook, type: "workflow", name: "hear" })
    expect(started.structuredContent).toMatchObject({ status: "started" })
    const runId: string = started.structuredContent.run_id

    const sent = await client.callTool("send_run_event", {
      playbook,
      run_id: runId,
      event: { type: "com.example.a", id: "a-1", data: "sent" }
    })
    expect(sent.isError, JSON.stringify(sent.content)).toBeFalsy()
    expect(sent.structuredContent).toMatchObject({ run_id: runId, event: { id: "a-1", type: "com.example.a" } })
    expect(sent.structuredContent.event.source).toMatch(/^\/callers\/.+/)
    expect(sent.content[0].text).toBe(`Delivered the event a-1 (com.example.a) to the run ${runId}.`)
    const again = await client.callTool("send_run_event", {
      playbook,
      run_id: runId,
      event: { type: "com.example.a", id: "a-1", data: "sent" }
    })
    expect(again.isError).toBeFalsy()

    const reserved = await client.callTool("publish_event", {
      playbook,
      event: { source: "/runs/x", type: "run_started" }
    })
    expect(reserved.isError).toBe(true)
    expect(problemOf(reserved)).toMatchObject({ status: 422, reason: "invalid_input" })
    expect(problemOf(reserved).errors.map((error: { pointer: string }) => error.pointer)).toEqual([
      "/event/type",
      "/event/source"
    ])

    const published = await client.callTool("publish_event", {
      playbook,
      event: { source: "/ledger/eu", type: "com.example.b", id: "b-1", data: "published" }
    })
    expect(published.isError, JSON.stringify(published.content)).toBeFalsy()
    expect(published.structuredContent).toMatchObject({ id: "b-1" })
    expect(published.content[0].text).toBe(`Recorded the event b-1 at ${published.structuredContent.recorded_at}.`)

    const ended = await waitFor(async () => {
      const read = await client.callTool("get_run", { playbook, run_id: runId })
      return read.structuredContent.status === "started" ? undefined : read.structuredContent
    })
    expect(ended).toMatchObject({ status: "succeeded", output: ["sent", "published"] })

    const history = await client.callTool("list_playbook_events", { playbook, run_id: runId, order: "asc" })
    const events: ReadonlyArray<{ id: string; type: string }> = history.structuredContent.events
    const inputs = events.filter((event) => event.type === "workflow_input_applied")
    expect(inputs.length).toBeGreaterThanOrEqual(2)
    const steps = events.filter((event) => event.type.startsWith("step_"))
    expect(steps.length).toBeGreaterThan(0)
    for (const step of steps) expect(inputs.map((input) => input.id)).toContain(step.id.replace(/_\d+$/, ""))
    expect(steps.map((step) => step.type)).toContain("step_finished")
    const finished = steps.find((step) => step.type === "step_finished")!
    const one = await client.callTool("get_event", { playbook, event_id: finished.id })
    expect(one.structuredContent).toMatchObject({ id: finished.id, type: "step_finished", data: { name: "hear" } })

    const late = await client.callTool("send_run_event", {
      playbook,
      run_id: runId,
      event: { type: "com.example.a", id: "a-2" }
    })
    expect(late.isError).toBe(true)
    expect(problemOf(late)).toMatchObject({ status: 404, reason: "not_found" })
    await client.close()
  }, 60_000)
})
