import { afterAll, beforeAll, expect, it } from "vitest"
import { askToGoOn as ask } from "../../../../examples/server/test/serverDocuments.js"
import { invoiceDocument as invoice } from "../../../core/test/computation/invoice.js"
import { newPlaybook } from "./newPlaybook.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"

const header = "document:\n  dsl: '1.0.3'\n  namespace: retries\n  name: flow\n  version: '1.0.0'\n"

/** A program that cannot produce its output for any input. */
const raising = `---
description: Always raises
language: typescript
---
export default function (input: Json): Json {
  throw new Error("no totals");
}
`

/** A workflow that waits for an event; its input must hold a number n. */
const waiting = `${header}input:
  schema:
    document: { type: object, required: [n], properties: { n: { type: number } } }
do:
  - hear:
      listen:
        to:
          one:
            with: { type: com.example.go }
`

/** A workflow whose one step raises an error of status 503: it ends rejected unavailable, without a final result. */
const failing = `${header}do:
  - stop:
      raise:
        error:
          type: https://example.com/errors/down
          status: 503
          title: The ledger is down
`

const lines = { lines: [{ sku: "a", quantity: 1, unit_cents: 100, vat_bp: 0 }] }

/** The seed's "Retrying under a run id", one test per row of its table and per exception. */
onEveryStore("retrying run_definition under a run id", (store) => {
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
    base = await newPlaybook(server, "retry")
    const saved = [
      ["computation", "invoice-totals", invoice],
      ["computation", "raises", raising],
      ["interaction", "ask", ask]
    ]
    for (const [type, name, source] of saved)
      expect((await server.send("POST", `${base}/definitions/${type}`, { name, source, diagram: "none" })).status).toBe(
        201
      )
    for (const [name, source] of [
      ["waiting", waiting],
      ["failing", failing]
    ])
      expect((await server.send("POST", `${base}/definitions/workflow`, { name, source })).status).toBe(201)
  }, 60_000)
  afterAll(() => server?.close())

  const run = (type: string, name: string, body: Record<string, unknown>) =>
    server.send("POST", `${base}/definitions/${type}/${name}/run`, body)
  /** The types of a run's facts, oldest first. */
  const history = async (runId: string) =>
    (await server.send("GET", `${base}/runs/${runId}/history?limit=100`)).body.events.map((event: any) => event.type)
  const ended = (runId: string) =>
    waitFor(async () => {
      const read = await server.send("GET", `${base}/runs/${runId}`)
      return read.body.status === "started" ? undefined : read.body
    })

  it("an id used with another definition or another input is conflict, and records nothing", async () => {
    const run_id = crypto.randomUUID()
    expect((await run("computation", "invoice-totals", { run_id, input: lines })).status).toBe(200)
    const facts = await server.factCount()
    const otherDefinition = await run("computation", "raises", { run_id, input: lines })
    const otherInput = await run("computation", "invoice-totals", { run_id, input: { lines: [] } })
    for (const refused of [otherDefinition, otherInput]) {
      expect([refused.status, refused.body.reason]).toEqual([409, "conflict"])
      expect(refused.body.detail).toContain("new run id")
    }
    expect(await server.factCount()).toBe(facts)
  })

  it("succeeded: returns the recorded output; nothing runs again", async () => {
    const run_id = crypto.randomUUID()
    const first = await run("computation", "invoice-totals", { run_id, input: lines })
    const facts = await server.factCount()
    const again = await run("computation", "invoice-totals", { run_id, input: { lines: lines.lines } })
    expect([again.status, again.body.output, again.body.ended_at]).toEqual([
      200,
      first.body.output,
      first.body.ended_at
    ])
    expect(await server.factCount()).toBe(facts)
  })

  it("rejected as invalid_input: returns the same rejection, and records nothing more", async () => {
    const run_id = crypto.randomUUID()
    const bad = { lines: [{ sku: "a", quantity: 0, unit_cents: 1, vat_bp: 1 }] }
    const first = await run("computation", "invoice-totals", { run_id, input: bad })
    expect([first.status, first.body.reason, first.body.kind]).toEqual([422, "invalid_input", "input_schema"])
    const facts = await server.factCount()
    const again = await run("computation", "invoice-totals", { run_id, input: bad })
    expect([again.status, again.body.reason, again.body.kind, again.body.errors]).toEqual([
      422,
      "invalid_input",
      "input_schema",
      first.body.errors
    ])
    expect(await server.factCount()).toBe(facts)
    expect(await history(run_id)).toEqual(["run_started", "run_rejected"])
    const read = await server.send("GET", `${base}/runs/${run_id}`)
    expect(read.body.rejection).toMatchObject({
      reason: "invalid_input",
      kind: "input_schema",
      errors: first.body.errors
    })
  })

  it("was cancelled: returns its cancellation, cancelled (409)", async () => {
    const run_id = crypto.randomUUID()
    expect((await run("workflow", "waiting", { run_id, input: { n: 1 } })).body.status).toBe("started")
    expect((await server.send("POST", `${base}/runs/${run_id}/cancel`, { reason: "Not needed" })).status).toBe(200)
    expect((await ended(run_id)).rejection).toMatchObject({ reason: "cancelled", kind: "requested" })
    const facts = await server.factCount()
    const again = await run("workflow", "waiting", { run_id, input: { n: 1 } })
    expect([again.status, again.body.reason, again.body.kind]).toEqual([409, "cancelled", "requested"])
    expect(await server.factCount()).toBe(facts)
  })

  it("still waits (a workflow run, an interaction's request): returns the run started, and starts nothing", async () => {
    for (const [type, name, input] of [
      ["workflow", "waiting", { n: 2 }],
      ["interaction", "ask", { n: 1 }]
    ] as const) {
      const run_id = crypto.randomUUID()
      expect((await run(type, name, { run_id, input })).body.status).toBe("started")
      const facts = await server.factCount()
      const again = await run(type, name, { run_id, input })
      expect([type, again.status, again.body.run_id, again.body.status]).toEqual([type, 200, run_id, "started"])
      expect(await server.factCount()).toBe(facts)
    }
  })

  it("has no final result (it ended conflict): runs again as a new attempt, on the latest version", async () => {
    const run_id = crypto.randomUUID()
    const first = await run("computation", "raises", { run_id, input: { a: 1 } })
    expect([first.status, first.body.kind]).toEqual([409, "unworkable"])
    const changed = await server.send("PUT", `${base}/definitions/computation/raises`, {
      source: raising.replace("no totals", "still no totals"),
      diagram: "none"
    })
    expect(changed.body.version).toBe(2)
    const again = await run("computation", "raises", { run_id, input: { a: 1 } })
    expect([again.status, again.body.kind]).toEqual([409, "unworkable"])
    expect(await history(run_id)).toEqual(["run_started", "run_rejected", "run_started", "run_rejected"])
    const events = (await server.send("GET", `${base}/runs/${run_id}/history`)).body.events
    expect(events.map((event: any) => event.metadata.definition.version)).toEqual([1, 1, 2, 2])
    expect(events[2].data.attempt).toBe(2)
    const read = await server.send("GET", `${base}/runs/${run_id}`)
    expect([read.body.definition_version, read.body.started_at]).toEqual([2, events[0].metadata.at])
  })

  it("a workflow runs once for its id: one that ended without a final result answers conflict, unworkable", async () => {
    const run_id = crypto.randomUUID()
    const first = await run("workflow", "failing", { run_id, input: { a: 1 } })
    expect([first.status, first.body.reason]).toEqual([503, "unavailable"])
    expect((await server.send("GET", `${base}/runs/${run_id}`)).body.status).toBe("rejected")
    const facts = await server.factCount()
    const again = await run("workflow", "failing", { run_id, input: { a: 1 } })
    expect([again.status, again.body.reason, again.body.kind]).toEqual([409, "conflict", "unworkable"])
    expect(again.body.detail).toContain("new run id")
    expect(await server.factCount()).toBe(facts)
  })

  it("checks a workflow's input schema before it answers that the workflow ran once", async () => {
    const run_id = crypto.randomUUID()
    const first = await run("workflow", "waiting", { run_id, input: { n: "three" } })
    expect([first.status, first.body.reason, first.body.kind]).toEqual([422, "invalid_input", "input_schema"])
    const again = await run("workflow", "waiting", { run_id, input: { n: "three" } })
    expect([again.status, again.body.reason, again.body.errors]).toEqual([422, "invalid_input", first.body.errors])
  })
})
