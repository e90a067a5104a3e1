import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { defaultSettings, RuntimeConfig, type ToolServerEntry, ToolServers } from "@runledger/core"
import { ToolServersLive } from "@runledger/tool-servers"
import { Effect, Either, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BillingApi, serveBilling } from "./fakes/billingApi.js"
import { type InventoryHttp, serveInventory } from "./fakes/inventoryHttp.js"

const secret = "inv-secret-0123456789"
const billingKey = "bill-key-abcdefgh"
const environment = { INVENTORY_KEY: secret, BILLING_KEY: billingKey, TENANT: "acme" }
/** Marks the command line of the process that never answers, to look for it once it was given up. */
const silentMark = `runledger-silent-${process.pid}`
const stdioScript = fileURLToPath(new URL("./fakes/inventoryStdio.mjs", import.meta.url))

let inventory: InventoryHttp
let billing: BillingApi
let runtime: ManagedRuntime.ManagedRuntime<ToolServers, never>

beforeAll(async () => {
  inventory = await serveInventory(secret, "acme")
  billing = await serveBilling(billingKey)
  const entries: Array<ToolServerEntry> = [
    {
      name: "inventory",
      type: "mcp",
      url: `${inventory.url}/mcp`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
      headers: { Authorization: "Bearer ${INVENTORY_KEY}" },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
      queryParams: { tenant: "${TENANT}" },
      requestId: "x-request-id",
      marks: { describe_warehouse: "reads" }
    },
    {
      name: "stock",
      type: "stdio",
      command: process.execPath,
      args: [stdioScript],
      connectTimeoutMs: 30_000,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
      env: { INVENTORY_KEY: "${INVENTORY_KEY}" }
    },
    {
      name: "restarting",
      type: "stdio",
      command: process.execPath,
      args: [stdioScript],
      connectTimeoutMs: 30_000,
      env: { INVENTORY_EXITS: "1" }
    },
    {
      name: "billing",
      type: "openapi",
      document: `${billing.url}/openapi.json`,
      baseUrl: billing.url,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
      headers: { "x-api-key": "${BILLING_KEY}" },
      marks: { searchInvoices: "reads" }
    },
    { name: "wrongkey", type: "mcp", url: `${inventory.url}/mcp`, headers: { Authorization: "Bearer nope-nope-nope" } },
    { name: "nowhere", type: "mcp", url: "http://127.0.0.1:9/mcp", connectTimeoutMs: 2_000 },
    // A process that starts and never answers: the SDK's timer and the runtime's bound are due at once.
    {
      name: "silent",
      type: "stdio",
      command: process.execPath,
      args: ["-e", `setInterval(() => {}, 1000) // ${silentMark}`],
      connectTimeoutMs: 300
    },
    {
      name: "unset",
      type: "mcp",
      url: `${inventory.url}/mcp`,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
      headers: { Authorization: "Bearer ${NOT_SET_ANYWHERE}" }
    }
  ]
  runtime = ManagedRuntime.make(
    ToolServersLive.layer(environment).pipe(
      Layer.provide(Layer.succeed(RuntimeConfig, { ...defaultSettings, toolServers: entries }))
    )
  )
})
afterAll(async () => {
  await runtime.dispose()
  await inventory.close()
  await billing.close()
})

const run = <A, E>(effect: Effect.Effect<A, E, ToolServers>) => runtime.runPromise(Effect.either(effect))
const list = (server: string, refresh = false) =>
  run(Effect.flatMap(ToolServers, (tools) => tools.list(server, { refresh })))
const call = (server: string, tool: string, args: Record<string, unknown> = {}, runId?: string) =>
  run(
    Effect.flatMap(ToolServers, (tools) =>
      tools.call({ server, tool, arguments: args, ...(runId === undefined ? {} : { runId }) })
    )
  )

describe("a remote MCP server over streamable HTTP", () => {
  it("lists its tools with the mark its hints give, or the settings' in their place", async () => {
    const tools = Either.getOrThrow(await list("inventory"))
    const marks = Object.fromEntries(tools.map((tool) => [tool.name, [tool.mark, tool.markedBy]]))
    expect(marks).toEqual({
      get_stock_level: ["reads", "server"],
      create_note: ["acts", "server"],
      describe_warehouse: ["reads", "settings"],
      broken_lookup: ["reads", "server"],
      whoami: ["reads", "server"]
    })
    expect(tools[0]).toMatchObject({ title: "Stock level", annotations: { readOnlyHint: true, openWorldHint: false } })
  })

  it("calls a tool with the run id in _meta, and keeps the JSON-RPC id and the server's request id", async () => {
    const answer = Either.getOrThrow(
      await call("inventory", "get_stock_level", { sku: "A-1" }, "0199b7e2-4c1d-7a3e-8f5b-6d2c1e0f9a8b")
    )
    expect(answer.isError).toBe(false)
    expect(answer.structuredContent).toMatchObject({ ok: true, run_id: "0199b7e2-4c1d-7a3e-8f5b-6d2c1e0f9a8b" })
    expect(inventory.calls.at(-1)?.meta).toEqual({ "io.runledger/run_id": "0199b7e2-4c1d-7a3e-8f5b-6d2c1e0f9a8b" })
    expect(answer.jsonrpcId).not.toBeNull()
    expect(answer.serverRequestId).toMatch(/^req-\d+$/)
  })

  it("scrubs the values of its references from what a tool answers", async () => {
    const answer = Either.getOrThrow(await call("inventory", "whoami"))
    expect(JSON.stringify(answer)).not.toContain(secret)
    expect(answer.content[0]).toEqual({ type: "text", text: "You gave the key [scrubbed]." })
  })

  it("answers a tool's own error as an answer with isError, and refused arguments as arguments_refused", async () => {
    expect(Either.getOrThrow(await call("inventory", "broken_lookup")).isError).toBe(true)
    const refused = await call("inventory", "get_stock_level", { sku: 7 })
    expect(Either.isLeft(refused) && refused.left).toMatchObject({
      _tag: "ToolCallFailed",
      because: "arguments_refused"
    })
  })

  it("fails as key_refused on a 401, rate_limited with the delay on a 429, failing on a 503", async () => {
    expect(Either.flip(await list("wrongkey")).pipe(Either.getOrThrow)).toMatchObject({ because: "key_refused" })
    inventory.mode = "rate_limited"
    const limited = await list("inventory", true)
    const limitedCall = await call("inventory", "get_stock_level", { sku: "A-1" })
    inventory.mode = "failing"
    const failingCall = await call("inventory", "get_stock_level", { sku: "A-1" })
    const failing = await list("inventory", true)
    inventory.mode = "serving"
    expect(Either.flip(limited).pipe(Either.getOrThrow)).toMatchObject({ because: "rate_limited", retryAfterMs: 7000 })
    expect(Either.flip(limitedCall).pipe(Either.getOrThrow)).toMatchObject({
      _tag: "ToolServerFailed",
      because: "rate_limited",
      retryAfterMs: 7000
    })
    expect(Either.flip(failing).pipe(Either.getOrThrow)).toMatchObject({ _tag: "ToolServerFailed", because: "failing" })
    // A call a held session sent that the server answered 503 may have reached the tool: the call's own failure.
    expect(Either.flip(failingCall).pipe(Either.getOrThrow)).toMatchObject({
      _tag: "ToolCallFailed",
      because: "server_failure"
    })
  })

  it("fails a call its server holds past the call's time limit as timed_out, and opens a session for the next", async () => {
    const held = inventory.holdCall()
    const late = run(
      Effect.flatMap(ToolServers, (tools) =>
        tools.call({ server: "inventory", tool: "get_stock_level", arguments: { sku: "T-1" }, timeoutMs: 300 })
      )
    )
    await held.reached
    const timedOut = await late
    held.release()
    expect(Either.flip(timedOut).pipe(Either.getOrThrow)).toMatchObject({
      _tag: "ToolCallFailed",
      because: "timed_out"
    })
    expect(Either.getOrThrow(await call("inventory", "get_stock_level", { sku: "T-2" })).isError).toBe(false)
  })

  it("fails as unreachable where nothing listens, and as key_refused when a variable it names is not set", async () => {
    expect(Either.flip(await list("nowhere")).pipe(Either.getOrThrow)).toMatchObject({ because: "unreachable" })
    const unset = Either.flip(await list("unset")).pipe(Either.getOrThrow)
    expect(unset).toMatchObject({ because: "key_refused" })
    expect(unset._tag === "ToolServerFailed" && unset.detail).toContain("NOT_SET_ANYWHERE")
  })

  it("fails a process that never answers within the connect limit as unreachable, whichever timer ends it", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const silent = Either.flip(await list("silent")).pipe(Either.getOrThrow)
      expect(silent).toMatchObject({
        because: "unreachable",
        detail: expect.stringContaining("did not open within 0.3 seconds")
      })
    }
    // Each process given up was killed: none is left running.
    expect(spawnSync("pgrep", ["-f", silentMark]).stdout.toString()).toBe("")
  })

  it("knows no server the settings do not name", async () => {
    expect(Either.flip(await list("elsewhere")).pipe(Either.getOrThrow)).toMatchObject({ _tag: "ToolServerUnknown" })
  })
})

/** Asks until `check` holds: what a server announces reaches the runtime on its own. */
const eventually = async (check: () => Promise<boolean>) => {
  for (let tries = 0; tries < 200; tries++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error("It never came to hold.")
}

const markOf = async (server: string, tool: string) =>
  Either.getOrThrow(await list(server)).find((listed) => listed.name === tool)?.mark

describe("sessions held between uses", () => {
  it("holds one session for listings and calls, and keeps its listing while the server announces changes", async () => {
    Either.getOrThrow(await call("inventory", "get_stock_level", { sku: "W-1" }))
    const opened = inventory.sessionsOpened()
    Either.getOrThrow(await list("inventory"))
    Either.getOrThrow(await call("inventory", "get_stock_level", { sku: "W-2" }))
    Either.getOrThrow(await call("inventory", "whoami"))
    expect(inventory.sessionsOpened()).toBe(opened)
    inventory.mode = "failing"
    const kept = await list("inventory")
    const asked = await list("inventory", true)
    inventory.mode = "serving"
    expect(Either.getOrThrow(kept).map((tool) => tool.name)).toContain("get_stock_level")
    expect(Either.flip(asked).pipe(Either.getOrThrow)).toMatchObject({ because: "failing" })
  })

  it("lists anew once the server says its tools changed", async () => {
    expect(await markOf("inventory", "create_note")).toBe("acts")
    await inventory.remark("create_note", { readOnlyHint: true })
    await eventually(async () => (await markOf("inventory", "create_note")) === "reads")
    await inventory.remark("create_note", undefined)
    await eventually(async () => (await markOf("inventory", "create_note")) === "acts")
  })

  it("opens a session again, once, when the server forgot it, and sends the call on it", async () => {
    Either.getOrThrow(await call("inventory", "get_stock_level", { sku: "F-0" }))
    const opened = inventory.sessionsOpened()
    await inventory.forgetSessions()
    const answer = Either.getOrThrow(await call("inventory", "get_stock_level", { sku: "F-1" }))
    expect(answer.structuredContent).toMatchObject({ stock: { sku: "F-1" } })
    expect(inventory.sessionsOpened()).toBe(opened + 1)
    expect(inventory.calls.filter((made) => made.arguments.sku === "F-1")).toHaveLength(1)
    // The forgotten session is not held again: two calls at once meet no other.
    const refused = inventory.unknownSessions()
    await Promise.all([call("inventory", "whoami"), call("inventory", "whoami")])
    expect(inventory.unknownSessions()).toBe(refused)
  })

  it("starts a process that exited again on the next call, and holds the one running between calls", async () => {
    const processId = async () => Either.getOrThrow(await call("restarting", "process_id")).content[0]
    const first = await processId()
    expect(await processId()).toEqual(first)
    const exited = await call("restarting", "exit_process")
    expect(Either.flip(exited).pipe(Either.getOrThrow)).toMatchObject({
      _tag: "ToolCallFailed",
      because: "server_failure"
    })
    expect(await processId()).not.toEqual(first)
  }, 120_000)
})

describe("a pool of few sessions", () => {
  it("closes the session unused longest past its bound, and one unused past its idle time", async () => {
    const entries: Array<ToolServerEntry> = ["first", "second"].map((name) => ({
      name,
      type: "mcp",
      url: `${inventory.url}/mcp`,
      headers: { Authorization: `Bearer ${secret}` },
      queryParams: { tenant: "acme" }
    }))
    const small = ManagedRuntime.make(
      ToolServersLive.layer(environment, { idleMs: 1_000, held: 1 }).pipe(
        Layer.provide(Layer.succeed(RuntimeConfig, { ...defaultSettings, toolServers: entries }))
      )
    )
    const callOn = (server: string) =>
      small.runPromise(
        Effect.flatMap(ToolServers, (tools) =>
          tools.call({ server, tool: "get_stock_level", arguments: { sku: server } })
        )
      )
    try {
      await inventory.forgetSessions()
      await callOn("first")
      await callOn("second")
      await eventually(async () => inventory.sessionsOpen() === 1)
      const opened = inventory.sessionsOpened()
      await callOn("first")
      expect(inventory.sessionsOpened()).toBe(opened + 1)
      await eventually(async () => inventory.sessionsOpen() === 0)
    } finally {
      await small.dispose()
    }
  })
})

describe("an MCP server the runtime starts as a process", () => {
  it("lists its tools and calls one, its secret scrubbed", async () => {
    const tools = Either.getOrThrow(await list("stock"))
    expect(tools.map((tool) => tool.name)).toContain("get_stock_level")
    const answer = Either.getOrThrow(await call("stock", "get_stock_level", { sku: "B-2" }, "run-1"))
    expect(answer.structuredContent).toMatchObject({ stock: { sku: "B-2" }, run_id: "run-1" })
    expect(JSON.stringify(Either.getOrThrow(await call("stock", "whoami")))).not.toContain(secret)
  }, 120_000)
})

describe("an HTTP API described by an OpenAPI document", () => {
  it("lists each operation as a tool taking its parameters and body, its schemas under $defs, marked by method", async () => {
    const tools = Either.getOrThrow(await list("billing"))
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
    expect(Object.keys(byName)).toEqual([
      "getInvoice",
      "voidInvoice",
      "createInvoice",
      "listCustomers",
      "searchInvoices"
    ])
    expect(byName.getInvoice).toMatchObject({
      description: "Reads one invoice.",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string" } },
        required: ["id"],
        additionalProperties: false
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
      mark: "reads",
      markedBy: "method"
    })
    expect(byName.createInvoice.inputSchema).toMatchObject({
      properties: { body: { $ref: "#/$defs/NewInvoice" } },
      required: ["body"],
      $defs: { NewInvoice: { properties: { lines: { items: { $ref: "#/$defs/Line" } } } }, Line: {} }
    })
    expect([byName.voidInvoice.mark, byName.searchInvoices.mark, byName.searchInvoices.markedBy]).toEqual([
      "acts",
      "reads",
      "settings"
    ])
  })

  it("calls an operation with its path, query and body, and answers its JSON as structured content", async () => {
    const invoice = Either.getOrThrow(await call("billing", "getInvoice", { id: "inv-2041" }))
    expect(invoice.structuredContent).toEqual({ id: "inv-2041", total: 1200 })
    const customers = Either.getOrThrow(await call("billing", "listCustomers", { limit: 5 }))
    expect(customers.structuredContent).toMatchObject({ limit: "5" })
    const created = Either.getOrThrow(await call("billing", "createInvoice", { body: { customer: "c1", lines: [] } }))
    expect(created.structuredContent).toMatchObject({ id: "inv-9", customer: "c1" })
    expect(billing.requests.at(-1)).toMatchObject({ method: "POST", path: "/invoices", body: { customer: "c1" } })
  })

  it("answers a 4xx as the tool's own error", async () => {
    expect(Either.getOrThrow(await call("billing", "getInvoice", { id: "missing" })).isError).toBe(true)
  })
})
