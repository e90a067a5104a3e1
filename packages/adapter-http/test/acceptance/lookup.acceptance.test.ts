import { Ledger, type RuntimeSettings } from "@runledger/core"
import { ToolServersLive } from "@runledger/tool-servers"
import { Effect, Layer } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type InventoryHttp, serveInventory } from "../../../tool-servers/test/fakes/inventoryHttp.js"
import { inventoryEntry } from "./inventoryEntry.js"
import { newPlaybook } from "./newPlaybook.js"
import { refusalOf } from "./refusalOf.js"
import { stoppedRun } from "./stoppedRun.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"

const inventoryKey = "inv-lookup-key-5521"

/** A lookup of one SKU's stock through the inventory server, its arguments typed from the input. */
const stockLookup = (tool = "get_stock_level", read = "/stock") => `---
description: Current stock of one SKU
call:
  server: inventory
  tool: ${tool}
  with:
    sku: '{{ input.sku }}'
    warehouse: '{{ input.warehouse | default: "main" }}'
    include_reservations: true
  read: ${read}
input:
  schema:
    type: object
    required: [sku]
    properties:
      sku: { type: string }
      warehouse: { type: string }
output:
  schema:
    type: object
    required: [on_hand, reserved]
    properties:
      on_hand: { type: integer }
      reserved: { type: integer }
---
`

onEveryStore("lookup functions over HTTP", (store) => {
  let server: AcceptanceServer
  let inventory: InventoryHttp
  beforeAll(async () => {
    inventory = await serveInventory(inventoryKey, "acme")
    const settings: Partial<RuntimeSettings> = {
      toolServers: [
        inventoryEntry(inventory, {
          allowed: ["get_stock_level", "create_note", "describe_warehouse", "broken_lookup", "whoami", "gone"]
        }),
        { name: "notes", type: "mcp", url: "http://127.0.0.1:9/mcp", connectTimeoutMs: 2_000 }
      ]
    }
    server = await startAcceptanceServer(store(), settings, Layer.empty, {
      toolServers: ToolServersLive.layer({ INVENTORY_KEY: inventoryKey })
    })
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await inventory?.close()
  })

  const playbook = () => newPlaybook(server, "lk")
  const save = (base: string, name: string, source: string) =>
    server.send("POST", `${base}/definitions/lookup`, { name, source, diagram: "none" })
  const run = (base: string, name: string, input: unknown, runId?: string) =>
    server.send("POST", `${base}/definitions/lookup/${name}/run`, {
      input,
      ...(runId === undefined ? {} : { run_id: runId })
    })

  it("calls the tool once with typed arguments and the run id, and answers what it returned at read", async () => {
    const base = await playbook()
    expect((await save(base, "stock", stockLookup())).status).toBe(201)
    const ran = await run(base, "stock", { sku: "SKU-7" })
    expect([ran.status, ran.body.status]).toEqual([200, "succeeded"])
    expect(ran.body.output).toEqual({
      sku: "SKU-7",
      on_hand: 41,
      reserved: 6,
      incoming: 120,
      updated_at: "2026-10-04T08:00:00Z"
    })
    expect(inventory.calls.at(-1)).toEqual({
      name: "get_stock_level",
      arguments: { sku: "SKU-7", warehouse: "main", include_reservations: true },
      meta: { "io.runledger/run_id": ran.body.run_id }
    })
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(history.body.events.map((event: any) => event.type)).toEqual([
      "run_started",
      "tool_call_started",
      "tool_call_answered",
      "run_succeeded"
    ])
    expect(history.body.events[1].data).toMatchObject({
      number: 1,
      call_id: ran.body.run_id,
      server: "inventory",
      tool: "get_stock_level",
      read_only: true,
      content_kept: true
    })
    expect(history.body.events[3].data.record).toMatchObject({
      server: "inventory",
      tool: "get_stock_level",
      read: "/stock",
      mark: "reads"
    })
    const again = await run(base, "stock", { sku: "SKU-7" }, ran.body.run_id)
    expect([again.status, again.body.output.on_hand]).toEqual([200, 41])
  })

  it("refuses at save, at the line of call, a tool that acts, an unmarked one, one not listed and a server not set up", async () => {
    const base = await playbook()
    for (const [source, words] of [
      [stockLookup("create_note"), "marked acts"],
      [stockLookup("describe_warehouse"), "marked unmarked"],
      [stockLookup("gone"), "does not list the tool gone"],
      [stockLookup("broken").replace("server: inventory", "server: billing"), "not set up for this playbook"],
      [stockLookup("not_allowed_here"), "does not allow"]
    ] as const) {
      const saved = await save(base, "bad", source)
      expect([saved.status, saved.body.errors[0].pointer, saved.body.errors[0].detail]).toEqual([
        422,
        "/source",
        expect.stringMatching(new RegExp(`^Line 3, column 1: at /call: .*${words}`))
      ])
    }
    const unreachable = await save(base, "down", stockLookup().replace("server: inventory", "server: notes"))
    expect([unreachable.status, unreachable.body.kind, unreachable.body.detail]).toEqual([
      503,
      "tool_server_failed",
      expect.stringContaining("notes")
    ])
    expect((await server.send("GET", `${base}/definitions/lookup/down`)).status).toBe(404)
  })

  /**
   * Waits until the runtime's answer on the inventory tool `tool` fits: a server's notice that its tools changed
   * arrives on its own.
   */
  const toolSeen = async (base: string, tool: string, fits: (answer: any) => boolean, what: string) => {
    for (let tries = 0; tries < 200; tries++) {
      if (fits((await server.send("GET", `${base}/tool-servers/inventory/tools/${tool}`)).body)) return
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    throw new Error(`The runtime never listed ${tool} ${what}.`)
  }
  const markSeen = (base: string, tool: string, mark: string) =>
    toolSeen(base, tool, (answer) => answer.mark === mark, `marked ${mark}`)

  it("records the mark the save saw, and refuses a run whose tool its server no longer marks reads, sending nothing", async () => {
    const base = await playbook()
    expect((await save(base, "who", stockLookup("whoami", "/x").replace("/x", "/nothing"))).status).toBe(201)
    const stream = `${base.replace("/v1/orgs/", "playbook/").replace("/playbooks/", "/")}/definitions/lookup/who`
    const [created] = await server.runtime.runPromise(Effect.flatMap(Ledger, (ledger) => ledger.readStream(stream)))
    expect(created?.data).toMatchObject({
      tool_mark: { server: "inventory", tool: "whoami", mark: "reads", marked_by: "server" }
    })
    await inventory.remark("whoami", { destructiveHint: true })
    await markSeen(base, "whoami", "acts")
    const sent = inventory.calls.length
    const ran = await run(base, "who", { sku: "A" })
    await inventory.remark("whoami", undefined)
    await markSeen(base, "whoami", "reads")
    expect(refusalOf(ran)).toEqual([503, "tool_not_read_only", undefined, null])
    expect(inventory.calls.length).toBe(sent)
  })

  it("refuses a run whose tool its server no longer offers as tool_not_offered, sending and recording no call", async () => {
    const base = await playbook()
    expect((await save(base, "stock", stockLookup())).status).toBe(201)
    expect((await run(base, "stock", { sku: "N-1" })).status).toBe(200)
    // The server stops listing the tool and says its tools changed, so the runtime lists them anew.
    inventory.hide("get_stock_level", true)
    await inventory.remark("get_stock_level", undefined)
    await toolSeen(base, "get_stock_level", (answer) => answer.because === "tool_not_listed", "as no longer listed")
    const sent = inventory.calls.length
    const ran = await run(base, "stock", { sku: "N-2" }).finally(() => inventory.hide("get_stock_level", false))
    expect(refusalOf(ran)).toEqual([503, "tool_not_offered", "tool_not_listed", null])
    expect(ran.body.detail).toContain("get_stock_level")
    expect(inventory.calls.length).toBe(sent)
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(history.body.events.map((event: any) => event.type)).toEqual(["run_started", "run_rejected"])
    expect((await run(base, "stock", { sku: "N-3" })).body.output).toMatchObject({ sku: "N-3", on_hand: 41 })
  })

  it("refuses a run whose server asks it to slow down before the call is sent, with the server's Retry-After", async () => {
    const base = await playbook()
    expect((await save(base, "stock", stockLookup())).status).toBe(201)
    // The server forgets its sessions; the next run's call opens one again, which holds no listing of its own yet.
    await inventory.forgetSessions()
    expect((await run(base, "stock", { sku: "R-1" })).status).toBe(200)
    const sent = inventory.calls.length
    inventory.mode = "rate_limited"
    const ran = await run(base, "stock", { sku: "R-2" })
    inventory.mode = "serving"
    expect(refusalOf(ran)).toEqual([503, "tool_server_failed", "rate_limited", "7"])
    expect(inventory.calls.length).toBe(sent)
    const standing = await server.send("GET", `${base}/runs/${ran.body.run_id}`)
    expect(standing.body.record).toEqual({ server: "inventory", tool: "get_stock_level", retry_after_ms: 7_000 })
  })

  it("ends a call the tool answered with its own error tools_unfinished; the same run id then answers tools_called", async () => {
    const base = await playbook()
    expect((await save(base, "broken", stockLookup("broken_lookup"))).status).toBe(201)
    const ran = await run(base, "broken", { sku: "A" })
    expect([ran.status, ran.body.kind, ran.body.because]).toEqual([503, "tools_unfinished", "tool_error"])
    const again = await run(base, "broken", { sku: "A" }, ran.body.run_id)
    expect([again.status, again.body.kind, again.body.because]).toEqual([409, "tools_called", "only_read"])
  })

  it("ends a call its server failed once sent tools_unfinished, because server_failed, without Retry-After", async () => {
    const base = await playbook()
    expect((await save(base, "stock", stockLookup())).status).toBe(201)
    // A run lists the tools on the session it holds; the next one finds them kept and sends its call at once.
    expect((await run(base, "stock", { sku: "K-1" })).status).toBe(200)
    inventory.mode = "failing"
    const ran = await run(base, "stock", { sku: "K-2" })
    inventory.mode = "serving"
    expect(refusalOf(ran)).toEqual([503, "tools_unfinished", "server_failed", null])
    const history = await server.send("GET", `${base}/runs/${ran.body.run_id}/history`)
    expect(history.body.events.map((event: any) => [event.type, event.data.because ?? null])).toEqual([
      ["run_started", null],
      ["tool_call_started", null],
      ["tool_call_failed", "server_failure"],
      ["run_rejected", "server_failed"]
    ])
    const again = await run(base, "stock", { sku: "K-2" }, ran.body.run_id)
    expect([again.status, again.body.kind, again.body.because]).toEqual([409, "tools_called", "only_read"])
  })

  it("answers tools_called to a run id whose lookup run is still started, even before its call, sending nothing", async () => {
    const base = await playbook()
    expect((await save(base, "stock", stockLookup())).status).toBe(201)
    const ran = await run(base, "stock", { sku: "L-1" })
    // The run's start alone, under a new id: a run whose server stopped before it sent its call.
    const runId = await stoppedRun(server, base, ran.body.run_id, 1, new Date())
    const sent = inventory.calls.length
    const again = await run(base, "stock", { sku: "L-1" }, runId)
    expect([again.status, again.body.reason, again.body.kind]).toEqual([409, "conflict", "tools_called"])
    expect(inventory.calls.length).toBe(sent)
    expect((await server.send("GET", `${base}/runs/${runId}/history`)).body.events).toHaveLength(1)
  })

  it("refuses an input its template cannot render, and a value at read that does not fit the output schema", async () => {
    const base = await playbook()
    expect((await save(base, "stock", stockLookup())).status).toBe(201)
    const missing = await run(base, "stock", { warehouse: "x" })
    expect([missing.status, missing.body.kind]).toEqual([422, "input_schema"])
    expect((await save(base, "whole", stockLookup("get_stock_level", "/ok"))).status).toBe(201)
    const mismatch = await run(base, "whole", { sku: "A" })
    expect([mismatch.status, mismatch.body.kind]).toEqual([409, "unworkable"])
  })

  it("reads the outputs of another definition's runs, newest first", async () => {
    const base = await playbook()
    expect((await save(base, "stock", stockLookup())).status).toBe(201)
    await run(base, "stock", { sku: "first" })
    await run(base, "stock", { sku: "second" })
    const source = `---
runs:
  type: lookup
  name: stock
  limit: 1
---
`
    expect((await save(base, "latest", source)).status).toBe(201)
    const ran = await run(base, "latest", {})
    expect(ran.body.output).toEqual([expect.objectContaining({ output: expect.objectContaining({ sku: "second" }) })])
  })
})
