import { catalog } from "@runledger/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { stoppedMessage, toWebHandler } from "../src/index.js"
import { connectClient, fullKey, harness, makeRuntime, problemOf, type Recorded } from "./fixture.js"
import { broken, slowEcho, whereAmI } from "./testOperations.js"

const testCatalog = [...catalog, whereAmI, slowEcho, broken]

/** Posts one JSON-RPC message as a streamable HTTP client of the 2025 revisions does. */
const post = (url: string, message: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2025-06-18",
      ...headers
    },
    body: JSON.stringify(message)
  })

/** The JSON-RPC messages of an event-stream body. */
const messagesOf = (body: string): Array<any> =>
  body
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice("data: ".length)))

describe("the MCP endpoints over HTTP, with API keys", () => {
  let served: Awaited<ReturnType<typeof harness>>
  beforeAll(async () => {
    served = await harness(
      { localMode: false, apiKeys: [fullKey, { ...fullKey, key: "rl_ops_only", name: "ops-bot", playbooks: ["ops"] }] },
      { catalog: testCatalog, heartbeatMs: 100 }
    )
  })
  afterAll(() => served.close())

  it("answers GET and other methods 405 with Allow: POST and a problem document", async () => {
    for (const method of ["GET", "DELETE", "PUT"]) {
      const response = await fetch(`${served.url}/mcp`, { method })
      expect(response.status).toBe(405)
      expect(response.headers.get("allow")).toBe("POST")
      expect(response.headers.get("content-type")).toBe("application/problem+json")
      expect(await response.json()).toMatchObject({ reason: "method_not_allowed", status: 405 })
    }
  })

  it("refuses a request without a key 401, before MCP handles it", async () => {
    const response = await post(`${served.url}/mcp`, { jsonrpc: "2.0", id: 1, method: "tools/list" })
    expect(response.status).toBe(401)
    expect(response.headers.get("content-type")).toBe("application/problem+json")
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/)
    expect(await response.json()).toMatchObject({
      type: "https://on.auto/problems/unauthenticated",
      reason: "unauthenticated",
      status: 401
    })
    const wrong = await post(
      `${served.url}/mcp`,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      {
        Authorization: "Bearer not-a-key"
      }
    )
    expect(wrong.status).toBe(401)
  })

  it("refuses an endpoint of another org 403, and a path that is no endpoint 404", async () => {
    const auth = { Authorization: `Bearer ${fullKey.key}` }
    const other = await post(`${served.url}/orgs/globex/mcp`, { jsonrpc: "2.0", id: 1, method: "tools/list" }, auth)
    expect(other.status).toBe(403)
    expect(await other.json()).toMatchObject({ reason: "forbidden" })
    const elsewhere = await post(
      `${served.url}/orgs/acme/playbooks/finance/mcp`,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      { Authorization: "Bearer rl_ops_only" }
    )
    expect(elsewhere.status).toBe(403)
    expect(await elsewhere.json()).toMatchObject({ reason: "forbidden", detail: expect.stringContaining("finance") })
    const nowhere = await post(
      `${served.url}/orgs/acme/elsewhere`,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      auth
    )
    expect(nowhere.status).toBe(404)
  })

  it("serves the directory listing as /mcp serves the caller's org", async () => {
    const client = await connectClient("v2 at 2026-07-28", `${served.url}/directory`, { key: fullKey.key })
    const tools = await client.listTools()
    expect(tools.find((tool) => tool.name === "where_am_i")?.inputSchema.required).toEqual(["playbook", "words"])
    expect(tools.map((tool) => tool.name)).toContain("create_playbook")
    expect(client.instructions()).toContain("acts on the org its credential belongs to, acme")
    const create = tools.find((tool) => tool.name === "create_definition")
    expect((create!.inputSchema.properties as any).type.enum).not.toContain("generation")
    expect((create!.inputSchema.properties as any).type.enum).toContain("computation")
    await client.callTool("create_playbook", { playbook: "listing", name: "Listing" })
    const hidden = await client.callTool("list_definitions", { playbook: "listing", type: "generation" })
    expect(hidden.isError).toBe(true)
    expect(JSON.parse((hidden.content as Array<{ text: string }>)[1].text)).toMatchObject({ reason: "not_found" })
    const shown = await client.callTool("list_definitions", { playbook: "listing", type: "computation" })
    expect(shown.isError).toBeFalsy()
    await client.close()
  })

  it("answers a notification 202", async () => {
    const response = await post(
      `${served.url}/mcp`,
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        Authorization: `Bearer ${fullKey.key}`
      }
    )
    expect(response.status).toBe(202)
  })

  it("negotiates 2025-06-18 for an initialize sent by hand, as an event stream", async () => {
    const response = await post(
      `${served.url}/mcp`,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "by-hand", version: "1" } }
      },
      { Authorization: `Bearer ${fullKey.key}` }
    )
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/)
    const [answer] = messagesOf(await response.text())
    expect(answer.result.protocolVersion).toBe("2025-06-18")
    expect(answer.result.serverInfo).toEqual({ name: "RunLedger", version: "0.1.0" })
    expect(answer.result.instructions).toContain("This connection acts as the key build-bot in the org acme.")
  })

  it("sends SSE comment heartbeats while a slow call runs, then its result (2025 revisions)", async () => {
    const response = await post(
      `${served.url}/mcp`,
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow_echo", arguments: { ms: 450 } } },
      { Authorization: `Bearer ${fullKey.key}` }
    )
    const body = await response.text()
    const beats = body.match(/^: keepalive$/gm) ?? []
    expect(beats.length).toBeGreaterThanOrEqual(3)
    expect(body.indexOf(": keepalive")).toBeLessThan(body.indexOf("data: "))
    expect(messagesOf(body)).toEqual([
      expect.objectContaining({ id: 7, result: expect.objectContaining({ structuredContent: { waited: 450 } }) })
    ])
  })

  it("sends SSE comment heartbeats while a slow call runs (2026-07-28)", async () => {
    const recorded: Recorded = []
    const client = await connectClient("v2 at 2026-07-28", `${served.url}/mcp`, { key: fullKey.key, recorded })
    const result = await client.callTool("slow_echo", { ms: 450 })
    expect(result.structuredContent).toEqual({ waited: 450 })
    await expect.poll(() => recorded.find((body) => body.includes("Waited 450 ms."))).toBeDefined()
    await client.close()
    const body = recorded.find((text) => text.includes("Waited 450 ms.")) ?? ""
    expect((body.match(/^: keepalive$/gm) ?? []).length).toBeGreaterThanOrEqual(3)
    expect(body.indexOf(": keepalive")).toBeLessThan(body.indexOf("data: "))
  })

  it("answers a defect as an internal problem with its incident, and keeps serving", async () => {
    const client = await connectClient("v2 at 2026-07-28", `${served.url}/mcp`, { key: fullKey.key })
    const result = await client.callTool("broken")
    expect(result.isError).toBe(true)
    expect(problemOf(result)).toMatchObject({
      reason: "internal",
      status: 500,
      instance: expect.stringMatching(/^urn:runledger:incident:/)
    })
    expect(result.content[0].text).toContain(problemOf(result).instance.slice("urn:runledger:incident:".length))
    expect((await client.callTool("slow_echo", { ms: 1 })).isError).toBeFalsy()
    await client.close()
  })
})

describe("tools that act inside a playbook, in local mode", () => {
  let served: Awaited<ReturnType<typeof harness>>
  beforeAll(async () => {
    served = await harness({ localMode: true, localName: "Ada Lovelace" }, { catalog: testCatalog })
    const client = await connectClient("v2 at 2026-07-28", `${served.url}/mcp`)
    await client.callTool("create_playbook", { playbook: "ops", name: "Operations" })
    await client.close()
  })
  afterAll(() => served.close())

  it("take a required playbook argument on /mcp and act in the playbook it names", async () => {
    const client = await connectClient("v1", `${served.url}/mcp`)
    expect(client.instructions()).toContain(
      "This connection acts as Ada Lovelace (local), the local developer, in the org local."
    )
    const tool = (await client.listTools()).find((listed) => listed.name === "where_am_i")
    expect(tool.inputSchema.required).toEqual(["playbook", "words"])
    expect(tool.inputSchema.properties.playbook.type).toBe("string")
    const result = await client.callTool("where_am_i", { playbook: "ops", words: "hello" })
    expect(result.structuredContent).toEqual({ playbook: "ops", org: "local", words: "hello" })
    const missing = await client.callTool("where_am_i", { words: "hello" })
    expect(problemOf(missing)).toMatchObject({ reason: "invalid_input", errors: [{ pointer: "/playbook" }] })
    const unknown = await client.callTool("where_am_i", { playbook: "nope", words: "hello" })
    expect(problemOf(unknown)).toMatchObject({ reason: "not_found" })
    await client.close()
  })

  it("take the playbook from the path on a playbook endpoint, and list no org tools there", async () => {
    const client = await connectClient("v2 at 2025-06-18", `${served.url}/orgs/local/playbooks/ops/mcp`)
    const tools = await client.listTools()
    const names = tools.map((listed) => listed.name)
    expect(names).toEqual(expect.arrayContaining(["get_guide", "slow_echo", "where_am_i"]))
    expect(names).not.toContain("create_playbook")
    expect(names).not.toContain("list_playbooks")
    for (const listed of tools) expect(listed.inputSchema.properties?.playbook).toBeUndefined()
    const tool = tools.find((listed) => listed.name === "where_am_i")
    expect(tool.inputSchema.required).toEqual(["words"])
    expect(tool.inputSchema.properties.playbook).toBeUndefined()
    const result = await client.callTool("where_am_i", { words: "hi" })
    expect(result.structuredContent).toEqual({ playbook: "ops", org: "local", words: "hi" })
    expect(client.instructions()).toContain("This connection acts on one playbook, ops, of the org local")
    await client.close()
  })

  it("are not listed on the org endpoint, which serves the org's playbook tools", async () => {
    const client = await connectClient("v2 at 2026-07-28", `${served.url}/orgs/local/mcp`)
    const names = (await client.listTools()).map((listed) => listed.name)
    expect(names).toContain("create_playbook")
    expect(names).not.toContain("where_am_i")
    const listed = await client.callTool("list_playbooks")
    expect(listed.structuredContent.playbooks.map((playbook: any) => playbook.id)).toEqual(["ops"])
    await client.close()
  })

  it("trust only loopback addresses", async () => {
    const handler = toWebHandler(served.runtime)
    const request = () =>
      new Request("http://runledger.test/mcp", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })
      })
    expect((await handler(request(), { remoteAddress: "203.0.113.9" })).status).toBe(401)
    expect((await handler(request(), {})).status).toBe(401)
    expect((await handler(request(), { remoteAddress: "::ffff:127.0.0.1" })).status).toBe(202)
  })

  it("refuse a browser's request from another site, and take one from this computer", async () => {
    const notification = { jsonrpc: "2.0", method: "notifications/initialized" }
    const rebound = await post(`${served.url}/mcp`, notification, { Origin: "http://evil.example:8080" })
    expect(rebound.status).toBe(403)
    expect(await rebound.json()).toMatchObject({ reason: "origin_not_allowed" })
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:4100", "http://[::1]:4100"])
      expect((await post(`${served.url}/mcp`, notification, { Origin: origin })).status).toBe(202)
  })
})

describe.each(["v2 at 2026-07-28", "v1"] as const)("stopping the runtime (%s)", (kind) => {
  it("answers a call in hand with the JSON-RPC error that says it may have taken effect, then refuses 503", async () => {
    const stop = new AbortController()
    const served = await harness(
      { localMode: false, apiKeys: [fullKey] },
      { catalog: testCatalog, heartbeatMs: 100, shutdown: stop.signal }
    )
    const client = await connectClient(kind, `${served.url}/mcp`, { key: fullKey.key })
    const started = Date.now()
    const call = client.callTool("slow_echo", { ms: 10_000 })
    setTimeout(() => stop.abort(), 300)
    await expect(call).rejects.toThrow(stoppedMessage)
    expect(Date.now() - started).toBeLessThan(5_000)
    const refused = await post(
      `${served.url}/mcp`,
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
      {
        Authorization: `Bearer ${fullKey.key}`
      }
    )
    expect(refused.status).toBe(503)
    expect(await refused.json()).toMatchObject({ reason: "unavailable" })
    await client.close().catch(() => {})
    await served.close()
  })
})

describe("the web handler without a server", () => {
  it("builds with the core's catalog and answers a path it does not serve 404", async () => {
    const runtime = makeRuntime()
    const response = await toWebHandler(runtime)(new Request("http://runledger.test/v1/orgs"), {
      remoteAddress: "127.0.0.1"
    })
    expect(response.status).toBe(404)
    await runtime.dispose()
  })
})
