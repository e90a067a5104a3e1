import { RunLedger, type RunLedgerRuntime } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { ToolServersLive } from "@runledger/tool-servers"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type InventoryHttp, serveInventory } from "../../tool-servers/test/fakes/inventoryHttp.js"
import { toWebHandler } from "../src/index.js"
import { type ClientKind, connectClient, fullKey, problemOf, readOnlyKey } from "./fixture.js"
import { type Served, serve } from "./serve.js"

const inventoryKey = "inv-mcp-key-77123"

let inventory: InventoryHttp
let runtime: RunLedgerRuntime
let served: Served

beforeAll(async () => {
  inventory = await serveInventory(inventoryKey, "acme")
  runtime = ManagedRuntime.make(
    RunLedger.onStore(
      MemoryStore.layer,
      {
        localMode: false,
        apiKeys: [fullKey, readOnlyKey],
        toolServers: [
          {
            name: "inventory",
            type: "mcp",
            url: `${inventory.url}/mcp`,
            // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
            headers: { Authorization: "Bearer ${INVENTORY_KEY}" },
            queryParams: { tenant: "acme" }
          }
        ]
      },
      undefined,
      undefined,
      ToolServersLive.layer({ INVENTORY_KEY: inventoryKey })
    )
  )
  served = await serve(toWebHandler(runtime))
})
afterAll(async () => {
  await served.close()
  await runtime.dispose()
  await inventory.close()
})

describe.each<ClientKind>(["v2 at 2026-07-28", "v1"])("the tool-server tools through a real MCP client, %s", (kind) => {
  it("searches, reads one tool, dry-runs and calls it; query_connection is read-only, execute_connection destructive", async () => {
    const client = await connectClient(kind, `${served.url}/mcp`, { key: fullKey.key })
    const playbook = `tools-${kind.replaceAll(/[^a-z0-9]/g, "")}`
    await client.callTool("create_playbook", { playbook, name: "Tools" })
    const tools = await client.listTools()
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    expect(
      ["search", "introspect", "dry_run", "query_connection", "execute_connection"].every((name) => byName.has(name))
    ).toBe(true)
    expect(byName.has("validate")).toBe(false)
    expect(byName.get("query_connection").annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true })
    expect(byName.get("execute_connection").annotations).toMatchObject({ destructiveHint: true, openWorldHint: true })

    const search = await client.callTool("search", { playbook, terms: "stock" })
    expect(search.isError).toBeFalsy()
    expect(search.structuredContent.tools[0]).toMatchObject({
      server: "inventory",
      tool: "get_stock_level",
      mark: "reads"
    })
    expect(search.structuredContent.servers[0].playbooks).toEqual(["*"])

    const tool = await client.callTool("introspect", { playbook, server: "inventory", tool: "create_note" })
    expect(tool.structuredContent).toMatchObject({ mark: "acts", marked_by: "server" })

    const dry = await client.callTool("dry_run", { playbook, server: "inventory", tool: "create_note", arguments: {} })
    expect(dry.structuredContent).toMatchObject({ would_run: true, arguments: { valid: false } })

    const refused = await client.callTool("query_connection", {
      playbook,
      server: "inventory",
      tool: "create_note",
      arguments: { sku: "A", text: "x" }
    })
    expect([refused.isError, problemOf(refused).kind]).toEqual([true, "tool_not_read_only"])

    const read = await client.callTool("query_connection", {
      playbook,
      server: "inventory",
      tool: "get_stock_level",
      arguments: { sku: "M-1" }
    })
    expect(read.structuredContent).toMatchObject({ outcome: "result", answer: { stock: { sku: "M-1" } } })
    const acted = await client.callTool("execute_connection", {
      playbook,
      server: "inventory",
      tool: "create_note",
      arguments: { sku: "M-1", text: "counted" }
    })
    expect(acted.structuredContent).toMatchObject({ outcome: "result", text: "Noted on M-1: counted" })
    await client.close()
  })

  it("offers a key that may only read neither query_connection nor execute_connection", async () => {
    const client = await connectClient(kind, `${served.url}/mcp`, { key: readOnlyKey.key })
    const names = (await client.listTools()).map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(["search", "introspect", "dry_run"]))
    expect(names).not.toContain("query_connection")
    expect(names).not.toContain("execute_connection")
    await client.close()
  })
})
