import { fileURLToPath } from "node:url"
import { ContentStore, Ledger, type RuntimeSettings } from "@runledger/core"
import { ToolServersLive } from "@runledger/tool-servers"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { type BillingApi, serveBilling } from "../../../tool-servers/test/fakes/billingApi.js"
import { exportsDocument, serveExports } from "../../../tool-servers/test/fakes/exportsApi.js"
import { type InventoryHttp, serveInventory } from "../../../tool-servers/test/fakes/inventoryHttp.js"
import type { ServedWeb } from "../../../tool-servers/test/fakes/serveWeb.js"
import { inventoryEntry } from "./inventoryEntry.js"
import { refusalOf } from "./refusalOf.js"
import { makeShiftedClock } from "./shiftedClock.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"

/** The keys the fake servers take, which nothing the runtime answers or records may show. */
const inventoryKey = "inv-secret-key-4217"
const billingKey = "bill-secret-key-9981"
const stdioScript = fileURLToPath(new URL("../../../tool-servers/test/fakes/inventoryStdio.mjs", import.meta.url))

/** An HTTP API given by its document's text, of 101 operations that read: more tools than a search lists. */
const wideApi = JSON.stringify({
  openapi: "3.1.0",
  info: { title: "Wide", version: "1" },
  paths: Object.fromEntries(
    Array.from({ length: 101 }, (_, index) => [
      `/reports/${index}`,
      { get: { operationId: `report${index}`, summary: `Reads report ${index}.` } }
    ])
  )
})

const keys = [
  {
    key: "full",
    name: "build-bot",
    org: "acme",
    permissions: ["org:read", "org:write", "playbook:read", "playbook:write"]
  },
  { key: "reader", name: "reader", org: "acme", permissions: ["org:read", "playbook:read"] },
  {
    key: "limited",
    name: "limited",
    org: "acme",
    permissions: ["playbook:read", "playbook:write"],
    playbooks: ["sales"]
  }
] as const

onEveryStore("tool servers over HTTP", (store) => {
  let server: AcceptanceServer
  let inventory: InventoryHttp
  let billing: BillingApi
  let exports: ServedWeb
  /** The runtime's clock, moved past a call's 30 s by the last test. */
  const clock = makeShiftedClock()
  const send = (method: string, path: string, body?: unknown, key = "full") =>
    server.send(method, `/v1/orgs/acme${path}`, body, { authorization: `Bearer ${key}` })

  beforeAll(async () => {
    inventory = await serveInventory(inventoryKey, "acme")
    billing = await serveBilling(billingKey)
    exports = await serveExports()
    const settings: Partial<RuntimeSettings> = {
      localMode: false,
      apiKeys: keys.map((key) => ({ ...key, permissions: [...key.permissions] })),
      toolServers: [
        inventoryEntry(inventory, {
          allowed: ["get_stock_level", "create_note", "describe_warehouse", "whoami", "not_there"],
          requestId: "x-request-id"
        }),
        {
          name: "billing",
          type: "openapi",
          document: `${billing.url}/openapi.json`,
          baseUrl: billing.url,
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
          headers: { "x-api-key": "${BILLING_KEY}" },
          recordContent: false
        },
        {
          name: "stock",
          type: "stdio",
          command: process.execPath,
          args: [stdioScript],
          playbooks: ["sales"],
          connectTimeoutMs: 30_000
        },
        { name: "notes", type: "mcp", url: "http://127.0.0.1:9/mcp", connectTimeoutMs: 2_000 },
        {
          name: "locked",
          type: "mcp",
          url: `${inventory.url}/mcp`,
          headers: { Authorization: "Bearer wrong-key-123" }
        },
        { name: "elsewhere", type: "mcp", url: `${inventory.url}/mcp`, orgs: ["other"] },
        { name: "wide", type: "openapi", documentText: wideApi, baseUrl: billing.url, playbooks: ["wide"] },
        // The inventory server again, given 300 ms to list its tools.
        { ...inventoryEntry(inventory), name: "slow", playbooks: ["bounds"], listTimeoutMs: 300 },
        { name: "exports", type: "openapi", documentText: exportsDocument, baseUrl: exports.url, playbooks: ["bounds"] }
      ]
    }
    server = await startAcceptanceServer(store(), settings, clock.layer, {
      toolServers: ToolServersLive.layer({ INVENTORY_KEY: inventoryKey, BILLING_KEY: billingKey })
    })
    for (const playbook of ["sales", "ops", "old", "wide", "bounds"])
      expect((await send("POST", "/playbooks", { playbook, name: playbook })).status).toBe(201)
    expect((await send("POST", "/playbooks/old/retire")).status).toBe(200)
  }, 60_000)
  afterAll(async () => {
    await server?.close()
    await inventory?.close()
    await billing?.close()
    await exports?.close()
  })

  /**
   * The first event of a type in the playbook `sales` that `matches`, waited for: on PostgreSQL the global order shows
   * a fact once every transaction older than its own has ended (ADR 0012's horizon), which another client of the
   * same database server may hold back a moment after the call's answer.
   */
  const eventOf = (type: string, matches: (event: any) => boolean) =>
    waitFor(async () => (await send("GET", `/playbooks/sales/events?type=${type}&limit=100`)).body.events.find(matches))

  it("searches the servers of a playbook: sorted, each asked, the one that cannot be asked listed unavailable", async () => {
    const found = await send("GET", "/playbooks/sales/tool-servers/search")
    expect(found.status).toBe(200)
    expect(found.body.scopes).toEqual(["billing", "inventory", "locked", "notes", "stock"])
    expect(found.body.servers[1]).toEqual({
      name: "inventory",
      provider: null,
      type: "mcp",
      record_content: true,
      tool_count: 4
    })
    expect(found.body.servers[0]).toMatchObject({
      name: "billing",
      type: "openapi",
      record_content: false,
      tool_count: 5
    })
    expect(found.body.servers[2]).toMatchObject({ name: "locked", because: "key_refused" })
    expect(found.body.servers[3]).toMatchObject({ name: "notes", because: "unreachable" })
    expect(found.body.servers[3].unavailable).toMatch(/^The tool server notes could not be used: /)
    expect(found.body.servers[4]).toMatchObject({ name: "stock", type: "stdio", tool_count: 5 })
    expect(found.body.tools).toContainEqual({
      server: "billing",
      tool: "getInvoice",
      summary: "Reads one invoice.",
      mark: "reads"
    })
    expect(found.body.tools.filter((tool: any) => tool.server === "inventory").map((tool: any) => tool.tool)).toEqual([
      "get_stock_level",
      "create_note",
      "describe_warehouse",
      "whoami"
    ])
    const ops = await send("GET", "/playbooks/ops/tool-servers/search")
    expect(ops.body.scopes).toEqual(["billing", "inventory", "locked", "notes"])
  }, 120_000)

  it("scores terms by the tool's name, its arguments and its description, best first; keeps only reads or writes", async () => {
    const found = await send("GET", "/playbooks/ops/tool-servers/search?terms=invoice&server=billing")
    expect(found.body.tools.map((tool: any) => tool.tool)).toEqual([
      "createInvoice",
      "getInvoice",
      "voidInvoice",
      "listCustomers"
    ])
    const reads = await send("GET", "/playbooks/ops/tool-servers/search?only=read&server=inventory")
    expect(reads.body.tools.map((tool: any) => tool.tool)).toEqual(["get_stock_level", "whoami"])
    expect(reads.body.servers).toEqual([expect.objectContaining({ name: "inventory", tool_count: 2 })])
    const writes = await send("GET", "/playbooks/ops/tool-servers/search?only=write&server=inventory")
    expect(writes.body.tools.map((tool: any) => [tool.tool, tool.mark])).toEqual([
      ["create_note", "acts"],
      ["describe_warehouse", "unmarked"]
    ])
    const unknown = await send("GET", "/playbooks/ops/tool-servers/search?server=stock")
    expect([unknown.status, unknown.body.errors[0].pointer]).toEqual([422, "/server"])
  })

  it("lists only the servers and their counts when they offer more than 100 tools, and at most 100 found by terms", async () => {
    const all = await send("GET", "/playbooks/wide/tool-servers/search")
    expect(all.status).toBe(200)
    expect(all.body.tools).toEqual([])
    expect(all.body.servers).toContainEqual(expect.objectContaining({ name: "wide", type: "openapi", tool_count: 101 }))
    const found = await send("GET", "/playbooks/wide/tool-servers/search?terms=report&server=wide")
    expect(found.body.tools).toHaveLength(100)
    expect(found.body.tools[0]).toEqual({ server: "wide", tool: "report0", summary: "Reads report 0.", mark: "reads" })
  })

  it("searches the org: each server with its playbooks; a key limited to some playbooks must name one", async () => {
    const all = await send("GET", "/tool-servers/search?server=stock")
    expect(all.body.servers).toEqual([expect.objectContaining({ name: "stock", playbooks: ["sales"] })])
    const inventoryOnly = await send("GET", "/tool-servers/search?server=inventory")
    expect(inventoryOnly.body.servers[0].playbooks).toEqual(["*"])
    const limited = await send("GET", "/tool-servers/search", undefined, "limited")
    expect([limited.status, limited.body.detail]).toEqual([403, expect.stringContaining("sales")])
    const named = await send("GET", "/tool-servers/search?playbook=sales&server=stock", undefined, "limited")
    expect(named.status).toBe(200)
    expect((await send("GET", "/tool-servers/search?playbook=nope")).status).toBe(404)
    const other = await send("GET", "/tool-servers/search?server=elsewhere")
    expect([other.status, other.body.errors[0].pointer]).toEqual([422, "/server"])
  }, 120_000)

  it("introspects a tool of an HTTP API as the seed's example shows it", async () => {
    const tool = await send("GET", "/playbooks/sales/tool-servers/billing/tools/getInvoice")
    expect(tool.body).toEqual({
      server: "billing",
      tool: "getInvoice",
      description: "Reads one invoice.",
      input_schema: {
        type: "object",
        properties: { id: { type: "string" } },
        required: ["id"],
        additionalProperties: false
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      mark: "reads",
      marked_by: "method"
    })
  })

  it("refuses a tool it does not offer, and a server it cannot ask, as unavailable with their kind and because", async () => {
    const cases = [
      ["/playbooks/ops/tool-servers/stock/tools/get_stock_level", "tool_not_offered", "tool_server_not_configured"],
      ["/playbooks/sales/tool-servers/inventory/tools/broken_lookup", "tool_not_offered", "tool_not_allowed"],
      ["/playbooks/sales/tool-servers/inventory/tools/not_there", "tool_not_offered", "tool_not_listed"],
      ["/playbooks/sales/tool-servers/locked/tools/whoami", "tool_server_failed", "key_refused"],
      ["/playbooks/sales/tool-servers/notes/tools/anything", "tool_server_failed", "unreachable"]
    ] as const
    for (const [path, kind, because] of cases) {
      const refused = await send("GET", path)
      expect([path, refused.status, refused.body.kind, refused.body.because]).toEqual([path, 503, kind, because])
    }
    const retry = await send("GET", "/playbooks/sales/tool-servers/notes/tools/anything")
    expect(retry.headers.get("retry-after")).not.toBeNull()
    const never = await send("GET", "/playbooks/sales/tool-servers/locked/tools/whoami")
    expect(never.headers.get("retry-after")).toBeNull()
  })

  it("validates arguments against the tool's input schema, the formats it checks among them", async () => {
    const wrong = await send("POST", "/playbooks/sales/tool-servers/billing/tools/getInvoice/validate", {
      arguments: { id: 42 }
    })
    expect(wrong.body).toEqual({ valid: false, issues: [{ path: "/id", message: expect.stringContaining("string") }] })
    const right = await send("POST", "/playbooks/sales/tool-servers/billing/tools/getInvoice/validate", {
      arguments: { id: "inv-1" }
    })
    expect(right.body).toEqual({ valid: true, issues: [] })
    const date = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/create_note/validate", {
      arguments: { sku: "A", text: "t", due: "next week" }
    })
    expect(date.body.issues).toEqual([
      { path: "/due", message: "Expected a string in the format date, such as 2026-04-01" }
    ])
  })

  it("dry-runs a call: whether it would run, the mark, the arguments checked, and why it would not", async () => {
    const ok = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/create_note/dry-run", {
      arguments: { sku: 7 }
    })
    expect(ok.body).toEqual({
      would_run: true,
      needs: "playbook:write",
      caller_may: true,
      playbook_retired: false,
      allowed: true,
      mark: "acts",
      arguments: { valid: false, issues: expect.arrayContaining([expect.objectContaining({ path: "/sku" })]) },
      server: { reachable: "yes" }
    })
    const reader = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/create_note/dry-run", {}, "reader")
    expect([reader.body.would_run, reader.body.caller_may, reader.body.arguments]).toEqual([false, false, null])
    const notAllowed = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/broken_lookup/dry-run", {})
    expect([notAllowed.body.allowed, notAllowed.body.mark, notAllowed.body.would_run]).toEqual([false, null, false])
    const down = await send("POST", "/playbooks/sales/tool-servers/notes/tools/anything/dry-run", { arguments: {} })
    expect([down.body.server, down.body.mark, down.body.arguments.valid]).toEqual([
      { reachable: "no", because: "unreachable" },
      null,
      null
    ])
    const retired = await send("POST", "/playbooks/old/tool-servers/inventory/tools/create_note/dry-run", {})
    expect([retired.body.playbook_retired, retired.body.would_run]).toEqual([true, false])
  })

  it("calls a tool that reads by hand, records the call on a stream of its own, and keeps its content", async () => {
    const called = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/get_stock_level/query", {
      arguments: { sku: "SKU-7" }
    })
    expect(called.status).toBe(200)
    expect(called.body).toMatchObject({
      server: "inventory",
      tool: "get_stock_level",
      outcome: "result",
      answer: { ok: true, stock: { sku: "SKU-7", on_hand: 41 }, run_id: null },
      server_request_id: expect.stringMatching(/^req-/)
    })
    expect(called.body.text).toContain('"on_hand":41')
    const started = await eventOf("tool_call_started", (event) => event.data.call_id === called.body.call_id)
    expect(started.data).toMatchObject({
      number: 1,
      server: "inventory",
      tool: "get_stock_level",
      content_kept: true,
      read_only: true,
      arguments_bytes: 15
    })
    const answered = await eventOf("tool_call_answered", (event) => event.metadata.stream === started.metadata.stream)
    expect(answered.data).toMatchObject({ is_error: false, content_kept: true, result_bytes: called.body.result_bytes })
    const kept = await server.runtime.runPromise(
      Effect.flatMap(ContentStore, (content) => content.read("acme/sales", started.data.arguments_sha256))
    )
    expect(Option.getOrThrow(kept)).toBe('{"sku":"SKU-7"}')
    const runs = await send("GET", "/playbooks/sales/runs")
    expect(runs.body.runs).toEqual([])
  })

  it("shows arguments and a result over 2 KiB as their sizes in the events, and whole in get_event", async () => {
    const sku = `SKU-${"x".repeat(3_000)}`
    const called = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/get_stock_level/query", {
      arguments: { sku }
    })
    expect([called.status, called.body.answer.stock.sku]).toEqual([200, sku])
    const started = await eventOf("tool_call_started", (event) => event.data.call_id === called.body.call_id)
    const answered = await eventOf("tool_call_answered", (event) => event.metadata.stream === started.metadata.stream)
    expect(started.data.arguments).toBeUndefined()
    expect(started.data.arguments_bytes).toBe(JSON.stringify({ sku }).length)
    expect(answered.data.result).toBeUndefined()
    expect(answered.data.result_bytes).toBe(called.body.result_bytes)
    const [startedInFull, answeredInFull] = await Promise.all(
      [started, answered].map(async (event) => (await send("GET", `/playbooks/sales/events/${event.id}`)).body)
    )
    expect(startedInFull.data.arguments).toEqual({ sku })
    expect(answeredInFull.data.result).toMatchObject({ structuredContent: { stock: { sku } } })
  })

  it("cuts the text a model would see at 64 KiB with a note, and leaves out an answer larger than 64 KiB", async () => {
    const sku = "y".repeat(70_000)
    const called = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/get_stock_level/query", {
      arguments: { sku }
    })
    expect([called.status, called.body.outcome, called.body.answer]).toEqual([200, "result", undefined])
    const whole = JSON.stringify({
      ok: true,
      stock: { sku, on_hand: 41, reserved: 6, incoming: 120, updated_at: "2026-10-04T08:00:00Z" },
      run_id: null
    })
    const [shown, note] = called.body.text.split("\n[cut: ")
    expect(new TextEncoder().encode(called.body.text).length).toBeLessThanOrEqual(65_536)
    expect(whole.startsWith(shown)).toBe(true)
    expect(note).toBe(`${whole.length - shown.length} more bytes were left out]`)
    expect(called.body.result_bytes).toBeGreaterThan(2 * whole.length)
  })

  it("refuses query_connection of a tool not marked reads, before anything is recorded; execute_connection calls it", async () => {
    const before = await server.factCount()
    const refused = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/create_note/query", {
      arguments: { sku: "A", text: "hello" }
    })
    expect([refused.status, refused.body.kind, refused.body.detail]).toEqual([
      503,
      "tool_not_read_only",
      expect.stringContaining("execute_connection")
    ])
    expect(refused.headers.get("retry-after")).toBeNull()
    expect(await server.factCount()).toBe(before)
    const executed = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/create_note/execute", {
      arguments: { sku: "A", text: "hello" }
    })
    expect([executed.status, executed.body.outcome, executed.body.answer]).toEqual([200, "result", "Noted on A: hello"])
    expect(inventory.calls.at(-1)).toMatchObject({ name: "create_note", arguments: { sku: "A", text: "hello" } })
  })

  it("answers a tool's own error, keeps no content for a server whose record_content is off", async () => {
    const missing = await send("POST", "/playbooks/sales/tool-servers/billing/tools/getInvoice/query", {
      arguments: { id: "missing" }
    })
    expect([missing.status, missing.body.outcome, missing.body.answer]).toEqual([
      200,
      "tool_error",
      { error: "no such invoice" }
    ])
    const started = await eventOf("tool_call_started", (event) => event.data.server === "billing")
    expect(started.data.content_kept).toBe(false)
    expect(started.data.arguments_sha256).toBeUndefined()
  })

  const query = (sku: string) =>
    send("POST", "/playbooks/sales/tool-servers/inventory/tools/get_stock_level/query", { arguments: { sku } })
  const startsOf = async (callId: string) =>
    (await send("GET", "/playbooks/sales/events?type=tool_call_started")).body.events.filter(
      (event: any) => event.data.call_id === callId
    )

  it("waits out a 429 asking 10 s or less and sends the call again; a longer one refuses with its Retry-After", async () => {
    expect((await query("R-0")).status).toBe(200)
    inventory.limitCalls("1")
    const waited = await query("R-1")
    expect([waited.status, waited.body.outcome, waited.body.answer.stock.sku]).toEqual([200, "result", "R-1"])
    expect(await startsOf(waited.body.call_id)).toHaveLength(1)
    expect(inventory.calls.filter((call) => call.arguments.sku === "R-1")).toHaveLength(1)
    for (const [asked, told] of [
      [["60"], "60"],
      [["1", "2"], "2"]
    ] as const) {
      inventory.limitCalls(...asked)
      const refused = await query("R-2")
      expect(refusalOf(refused)).toEqual([503, "tool_server_failed", "rate_limited", told])
    }
    expect(inventory.calls.filter((call) => call.arguments.sku === "R-2")).toHaveLength(0)
  })

  it("opens the session a server forgot again, once, and calls on it", async () => {
    expect((await query("F-0")).status).toBe(200)
    const opened = inventory.sessionsOpened()
    await inventory.forgetSessions()
    const called = await query("F-1")
    expect([called.status, called.body.answer.stock.sku]).toEqual([200, "F-1"])
    expect(inventory.sessionsOpened()).toBe(opened + 1)
  })

  it("refuses a server that fails or lacks a scope as tool_server_failed with its because, recording and sending nothing", async () => {
    const tool = "/playbooks/sales/tool-servers/inventory/tools"
    for (const [mode, because, retryAfter] of [
      ["failing", "failing", "30"],
      ["scope_lacking", "scope_lacking", null]
    ] as const) {
      const [before, sent] = [await server.factCount(), inventory.calls.length]
      inventory.mode = mode
      // A tool the kept listing lacks has the server asked anew (ADR 0306), and it answers 503 or 403.
      const called = await send("POST", `${tool}/not_there/query`, { arguments: {} })
      const introspected = await send("GET", `${tool}/not_there`)
      const searched = await send("GET", "/playbooks/sales/tool-servers/search?server=inventory")
      const dryRun = await send("POST", `${tool}/get_stock_level/dry-run`, {})
      inventory.mode = "serving"
      for (const refused of [called, introspected])
        expect(refusalOf(refused)).toEqual([503, "tool_server_failed", because, retryAfter])
      expect(searched.body.servers).toEqual([
        expect.objectContaining({ name: "inventory", because, unavailable: expect.stringContaining("inventory") })
      ])
      expect([dryRun.body.would_run, dryRun.body.server]).toEqual([false, { reachable: "no", because }])
      expect([await server.factCount(), inventory.calls.length]).toEqual([before, sent])
    }
    expect((await query("S-2")).body.outcome).toBe("result")
  })

  it("keeps a server's listing while it announces changes, and asks anew when the listing lacks the tool named", async () => {
    const inventoryTools = async () =>
      (await send("GET", "/playbooks/sales/tool-servers/search?server=inventory")).body.tools.map(
        (tool: any) => tool.tool
      )
    expect(await inventoryTools()).toContain("describe_warehouse")
    inventory.hide("describe_warehouse", true)
    // A tool the kept listing lacks has the server asked anew: the listing kept from then lacks the hidden one.
    const absent = await send("GET", "/playbooks/sales/tool-servers/inventory/tools/not_there")
    expect([absent.status, absent.body.because]).toEqual([503, "tool_not_listed"])
    inventory.hide("describe_warehouse", false)
    expect(await inventoryTools()).not.toContain("describe_warehouse")
    const found = await send("GET", "/playbooks/sales/tool-servers/inventory/tools/describe_warehouse")
    expect([found.status, found.body.tool]).toEqual([200, "describe_warehouse"])
    expect(await inventoryTools()).toContain("describe_warehouse")
  })

  it("answers the org route from what a server listed for the org within five minutes; the playbook route asks", async () => {
    const toolsOf = async (path: string) =>
      (await send("GET", `${path}/tool-servers/search?server=inventory`)).body.tools.map((tool: any) => tool.tool)
    expect(await toolsOf("")).toContain("describe_warehouse")
    inventory.hide("describe_warehouse", true)
    // Naming a tool the kept listing lacks has the server asked anew: the playbook's route sees the change.
    expect((await send("GET", "/playbooks/sales/tool-servers/inventory/tools/not_there")).status).toBe(503)
    expect(await toolsOf("/playbooks/sales")).not.toContain("describe_warehouse")
    expect(await toolsOf("")).toContain("describe_warehouse")
    inventory.hide("describe_warehouse", false)
    expect((await send("GET", "/playbooks/sales/tool-servers/inventory/tools/describe_warehouse")).status).toBe(200)
  })

  it("calls a tool of a server it starts as a process", async () => {
    const called = await send("POST", "/playbooks/sales/tool-servers/stock/tools/get_stock_level/query", {
      arguments: { sku: "P-1" }
    })
    expect([called.status, called.body.answer.stock.sku]).toEqual([200, "P-1"])
  }, 120_000)

  it("refuses a call in a retired playbook, arguments over 256 KiB, and a read-only key", async () => {
    const retired = await send("POST", "/playbooks/old/tool-servers/inventory/tools/get_stock_level/query", {
      arguments: { sku: "A" }
    })
    expect([retired.status, retired.body.kind]).toEqual([409, "retired"])
    const large = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/get_stock_level/query", {
      arguments: { sku: "x".repeat(262_144) }
    })
    expect([large.status, large.body.errors[0].pointer]).toEqual([422, "/arguments"])
    const reader = await send(
      "POST",
      "/playbooks/sales/tool-servers/inventory/tools/get_stock_level/query",
      { arguments: { sku: "A" } },
      "reader"
    )
    expect(reader.status).toBe(403)
  })

  it("scrubs the servers' secrets from every answer and every fact", async () => {
    const whoami = await send("POST", "/playbooks/sales/tool-servers/inventory/tools/whoami/query", {})
    expect(whoami.body.text).toBe("You gave the key [scrubbed].")
    const search = await send("GET", "/playbooks/sales/tool-servers/search")
    const facts = await server.runtime.runPromise(
      Effect.flatMap(Ledger, (ledger) => ledger.readAll({ direction: "forward", limit: 1_000_000 }))
    )
    for (const text of [JSON.stringify(whoami.body), JSON.stringify(search.body), JSON.stringify(facts)])
      for (const secret of [inventoryKey, billingKey]) expect(text).not.toContain(secret)
  }, 120_000)

  it("refuses a server that does not list its tools within its list_timeout_ms as tool_server_failed, failing", async () => {
    const tool = "/playbooks/bounds/tool-servers/slow/tools/get_stock_level"
    const held = inventory.holdList()
    const [before, sent] = [await server.factCount(), inventory.calls.length]
    const introspected = await send("GET", tool)
    const called = await send("POST", `${tool}/query`, { arguments: { sku: "L-1" } })
    held.release()
    expect(refusalOf(introspected)).toEqual([503, "tool_server_failed", "failing", "30"])
    expect(introspected.body.detail).toContain("did not list its tools within 0.3 seconds")
    // The session that timed out is let go; the next one lists the tools in time, and the call goes on.
    expect([called.status, called.body.outcome]).toEqual([200, "result"])
    expect(inventory.calls.length).toBe(sent + 1)
    expect(await server.factCount()).toBe(before + 2)
    const listed = await send("GET", tool)
    expect([listed.status, listed.body.mark]).toEqual([200, "reads"])
  })

  it("fails a call whose answer holds more than one call may return (16 MiB over HTTP) as too_large", async () => {
    const call = (bytes: number) =>
      send("POST", "/playbooks/bounds/tool-servers/exports/tools/getExport/query", { arguments: { bytes } })
    const fits = await call(64)
    expect([fits.status, fits.body.outcome, fits.body.result_bytes]).toEqual([200, "result", expect.any(Number)])
    const large = await call(16 * 1_048_576 + 1)
    expect([large.status, large.body.outcome, large.body.result_bytes]).toEqual([200, "too_large", null])
    const failed = await waitFor(async () =>
      (await send("GET", "/playbooks/bounds/events?type=tool_call_failed&limit=100")).body.events.find((event: any) =>
        event.metadata.stream.endsWith(`/tool-calls/${large.body.call_id}`)
      )
    )
    expect(failed.data).toMatchObject({ number: 1, because: "too_large", detail: expect.stringContaining("16 MiB") })
  })

  // Last: it moves the runtime's clock 31 s on, past the idle time of every held session.
  it("answers a call its server holds past 30 s as timed_out, recording the call failed", async () => {
    const held = inventory.holdCall()
    const calling = query("T-1")
    await held.reached
    clock.shift("31 seconds")
    const called = await calling
    held.release()
    expect([called.status, called.body.outcome, called.body.result_bytes]).toEqual([200, "timed_out", null])
    const started = await eventOf("tool_call_started", (event) => event.data.call_id === called.body.call_id)
    const failed = await eventOf("tool_call_failed", (event) => event.metadata.stream === started.metadata.stream)
    expect(failed.data).toMatchObject({ number: 1, because: "timed_out" })
    expect((await query("T-2")).body.outcome).toBe("result")
  })
})
