import { afterAll, beforeAll, expect, it } from "vitest"
import { newPlaybook } from "./newPlaybook.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"
import { endedRun, saveAll, workflowNamed as workflow } from "./workflowDocuments.js"

/** A workflow that ends at once: its `run_succeeded` is a playbook fact of subject `workflow/done`. */
const done = workflow("done", "  - s:\n      set: { done: true }\n")

/** Listens for one event, given as the filter's attributes, and outputs the whole event. */
const hearing = (name: string, filter: string) =>
  workflow(
    name,
    `  - hear:\n      listen:\n        to:\n          one:\n            with: ${filter}\n        read: envelope\n`
  )

/** Listens for another run's input while its own timer fires: its own input must not be offered to it. */
const hearingOthers = workflow(
  "others",
  `  - both:\n      fork:\n        branches:\n          - hear:\n              listen:\n                to:\n                  one:\n                    with: { type: workflow_input_applied }\n                read: envelope\n          - pause:\n              wait: { milliseconds: 50 }\n`
)

/** Emits an event other runs may hear. */
const telling = workflow(
  "teller",
  "  - tell:\n      emit:\n        event:\n          with:\n            type: com.example.told\n            source: https://example.com/flows\n            data: { said: hi }\n"
)

onEveryStore("playbook facts and events offered to open listens over HTTP", (store) => {
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
    base = await newPlaybook(server, "listens")
    await saveAll(server, base, "workflow", [
      ["done", done],
      ["hear-done", hearing("hear-done", "{ type: run_succeeded, subject: workflow/done }")],
      ["others", hearingOthers],
      ["teller", telling],
      ["hear-told", hearing("hear-told", "{ type: com.example.told }")]
    ])
  }, 60_000)
  afterAll(() => server?.close())

  const run = async (name: string) => {
    const started = await server.send("POST", `${base}/definitions/workflow/${name}/run`, {})
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    return started.body as { run_id: string; status: string }
  }
  const ended = (runId: string) => endedRun(server, base, runId)

  it("a listen hears a run's fact recorded while it is open, by source and subject, and none recorded before", async () => {
    const before = await run("done")
    expect(before.status).toBe("succeeded")
    const listener = await run("hear-done")
    expect(listener.status).toBe("started")
    const after = await run("done")
    const heard = await ended(listener.run_id)
    expect(heard.status, JSON.stringify(heard)).toBe("succeeded")
    expect(heard.output).toHaveLength(1)
    expect(heard.output[0]).toMatchObject({
      type: "run_succeeded",
      source: `/runs/${after.run_id}`,
      subject: "workflow/done"
    })
    const record = await server.send("GET", `${base}/events/${heard.output[0].id}`)
    expect(record.body).toMatchObject({ type: "run_succeeded", metadata: { run_id: after.run_id } })
  }, 60_000)

  it("a listen never hears its own run's facts", async () => {
    const listener = await run("others")
    await waitFor(async () => {
      const history = await server.send("GET", `${base}/runs/${listener.run_id}/history`)
      return history.body.events.find(
        (event: any) => event.type === "workflow_input_applied" && event.data.input.kind === "timer_fired"
      )
    }, 20_000)
    expect((await server.send("GET", `${base}/runs/${listener.run_id}`)).body.status).toBe("started")
    const other = await run("done")
    const heard = await ended(listener.run_id)
    expect(heard.status, JSON.stringify(heard)).toBe("succeeded")
    expect(heard.output[0][0]).toMatchObject({ type: "workflow_input_applied", source: `/runs/${other.run_id}` })
  }, 60_000)

  it("an event a workflow emits reaches another run's open listen, once", async () => {
    const listener = await run("hear-told")
    const teller = await run("teller")
    expect(teller.status).toBe("succeeded")
    const heard = await ended(listener.run_id)
    expect(heard, JSON.stringify(heard)).toMatchObject({
      status: "succeeded",
      output: [{ type: "com.example.told", source: "https://example.com/flows", data: { said: "hi" } }]
    })
    const history = await server.send("GET", `${base}/runs/${listener.run_id}/history`)
    const received = history.body.events.filter(
      (event: any) => event.type === "workflow_input_applied" && event.data.input.kind === "event_received"
    )
    expect(received).toHaveLength(1)
    const listed = await server.send("GET", `${base}/events?type=event_published&limit=100`)
    const shown = listed.body.events.filter((event: any) => event.data.event_type === "com.example.told")
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatchObject({
      data: { event_id: heard.output[0].id, source: "https://example.com/flows" },
      metadata: { run_id: teller.run_id, definition: { type: "workflow", name: "teller", version: 1 } }
    })
    expect(heard.output[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-/)
  }, 60_000)
})
