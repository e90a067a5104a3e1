import { catalog, guides, permissionsOf } from "@runledger/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type ClientKind,
  connectClient,
  fullKey,
  type Harness,
  harness,
  problemOf,
  readOnlyKey,
  type TestClient
} from "./fixture.js"

const kinds: ReadonlyArray<ClientKind> = ["v2 at 2026-07-28", "v2 at 2025-06-18", "v1"]

describe.each(kinds)("an MCP client (%s) on /mcp", (kind) => {
  let served: Harness
  let agent: TestClient
  let reader: TestClient

  beforeAll(async () => {
    served = await harness({ localMode: false, apiKeys: [fullKey, readOnlyKey] })
    agent = await connectClient(kind, `${served.url}/mcp`, { key: fullKey.key })
    reader = await connectClient(kind, `${served.url}/mcp`, { key: readOnlyKey.key })
  })
  afterAll(async () => {
    await agent.close()
    await reader.close()
    await served.close()
  })

  it("negotiates the revision it asked for", () => {
    const expected = kind === "v2 at 2026-07-28" ? "2026-07-28" : kind === "v2 at 2025-06-18" ? "2025-06-18" : undefined
    if (expected !== undefined) expect(agent.protocolVersion()).toBe(expected)
    else expect(["2025-11-25", "2025-06-18", "2025-03-26"]).toContain(agent.protocolVersion())
  })

  it("lists the catalog's tools with their words, object schemas and annotations, and no output schema", async () => {
    const tools = await agent.listTools()
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    const servedOnRoot = catalog.filter((operation) => operation.served.mcp.includes("root"))
    expect([...byName.keys()].sort()).toEqual(servedOnRoot.map((operation) => operation.name).sort())
    for (const name of ["create_playbook", "list_playbooks", "get_playbook", "retire_playbook", "get_guide"])
      expect(byName.has(name)).toBe(true)
    for (const operation of servedOnRoot.filter((served) => served.scope === "playbook")) {
      const schema = byName.get(operation.name).inputSchema
      expect(schema.required[0]).toBe("playbook")
      expect(schema.properties.playbook.type).toBe("string")
    }
    const create = byName.get("create_playbook")
    expect(create.title).toBe("Create a playbook")
    expect(create.description).toMatch(/^Create a playbook, active and empty\./)
    expect(create.inputSchema).toMatchObject({ type: "object", required: ["playbook", "name"] })
    expect(create.inputSchema.properties.playbook).toMatchObject({ type: "string", pattern: "^[a-z][a-z0-9-]{2,47}$" })
    expect(JSON.stringify(create.inputSchema)).not.toContain("$ref")
    expect(create.outputSchema).toBeUndefined()
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: false })
    expect(byName.get("get_playbook").annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true
    })
    expect(byName.get("update_playbook").annotations).toMatchObject({ destructiveHint: true, idempotentHint: true })
  })

  it("tells the agent to read start first and whom it acts as", () => {
    const instructions = agent.instructions() ?? ""
    expect(instructions.slice(0, 512)).toContain("read the guide start with get_guide")
    expect(instructions).toContain("This connection acts as the key build-bot in the org acme.")
  })

  it("creates, lists, reads, changes, retires and restores a playbook", async () => {
    const created = await agent.callTool("create_playbook", { playbook: "finance", name: "Finance" })
    expect(created.isError).toBeFalsy()
    expect(created.content[0].text).toBe("Created the playbook “Finance” (finance), active and empty.")
    expect(JSON.parse(created.content[1].text)).toEqual(created.structuredContent)
    expect(created.structuredContent).toMatchObject({
      id: "finance",
      name: "Finance",
      status: "active",
      created_by: { id: "key:build-bot", name: "build-bot" }
    })

    const listed = await agent.callTool("list_playbooks")
    expect(listed.content[0].text).toBe("Found 1 playbook: finance.")
    expect(listed.structuredContent.playbooks.map((playbook: any) => playbook.id)).toEqual(["finance"])

    const updated = await agent.callTool("update_playbook", { playbook: "finance", description: "Month-end close" })
    expect(updated.structuredContent.description).toBe("Month-end close")

    const read = await agent.callTool("get_playbook", { playbook: "finance" })
    expect(read.content[0].text).toBe("The playbook “Finance” (finance) is active.")
    expect(read.structuredContent.description).toBe("Month-end close")

    const retired = await agent.callTool("retire_playbook", { playbook: "finance" })
    expect(retired.structuredContent.status).toBe("retired")
    const hidden = await agent.callTool("list_playbooks")
    expect(hidden.structuredContent.playbooks).toEqual([])

    const restored = await agent.callTool("restore_playbook", { playbook: "finance" })
    expect(restored.structuredContent.status).toBe("active")
  })

  it("passes the playbook argument of a tool that works inside a playbook as the playbook it acts in", async () => {
    const listed = await agent.callTool("list_definitions", { playbook: "finance", type: "computation" })
    expect(listed.isError).toBeFalsy()
    expect(listed.structuredContent).toEqual({ definitions: [] })
    const unknown = await agent.callTool("list_definitions", { playbook: "payroll", type: "computation" })
    expect(problemOf(unknown)).toMatchObject({ reason: "not_found", detail: expect.stringContaining("payroll") })
  })

  it("answers a refusal as isError with its words and problem document, and no structured content", async () => {
    const conflict = await agent.callTool("create_playbook", { playbook: "finance", name: "Again" })
    expect(conflict.isError).toBe(true)
    expect(conflict.structuredContent).toBeUndefined()
    expect(problemOf(conflict)).toMatchObject({ reason: "conflict", status: 409, detail: conflict.content[0].text })

    const invalid = await agent.callTool("create_playbook", { playbook: "sales", name: "   ", colour: "red" })
    expect(invalid.isError).toBe(true)
    const problem = problemOf(invalid)
    expect(problem).toMatchObject({
      reason: "invalid_input",
      status: 422,
      type: "https://on.auto/problems/invalid_input"
    })
    expect(problem.errors.map((error: any) => error.pointer).sort()).toEqual(["/colour", "/name"])
  })

  it("refuses a tool the connection does not list with -32602", async () => {
    await expect(reader.callTool("create_playbook", { playbook: "sales", name: "Sales" })).rejects.toMatchObject({
      code: -32602
    })
    await expect(agent.callTool("render_playbook_page", {})).rejects.toMatchObject({ code: -32602 })
  })

  it("offers a read-only key the tools that read and a reader's acts, and none that creates or runs anything", async () => {
    const tools = await reader.listTools()
    const readable = catalog.filter(
      (operation) =>
        operation.served.mcp.includes("root") &&
        (permissionsOf(operation).length === 0 ||
          permissionsOf(operation).some((permission) => readOnlyKey.permissions.includes(permission)))
    )
    expect(tools.map((tool) => tool.name).sort()).toEqual(readable.map((operation) => operation.name).sort())
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["get_guide", "get_playbook", "list_playbooks"])
    )
    /** Resolving a comment is a reader's act (HTTP "Comments"), so a key that may only read is offered it. */
    const readersActs = ["resolve_comment"]
    for (const tool of tools.filter((tool) => !readersActs.includes(tool.name)))
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false })
    for (const operation of readable.filter((operation) => !readersActs.includes(operation.name)))
      expect(operation.kind).toBe("query")
    for (const operation of readable) expect(permissionsOf(operation)).not.toContain("playbook:write")
    expect(tools.map((tool) => tool.name)).not.toContain("create_definition")
    expect(tools.map((tool) => tool.name)).not.toContain("run_definition")
    const listed = await reader.callTool("list_playbooks")
    expect(listed.structuredContent.playbooks.map((playbook: any) => playbook.id)).toEqual(["finance"])
  })

  it("lists every guide as a Markdown resource with the text get_guide returns", async () => {
    const resources = await agent.listResources()
    expect(resources.map((resource) => resource.uri)).toEqual(guides.map((guide) => `guide://${guide.name}`))
    for (const resource of resources) expect(resource.mimeType).toBe("text/markdown")
    for (const guide of guides) {
      const read = await agent.readResource(`guide://${guide.name}`)
      const viaTool = await agent.callTool("get_guide", { guide: guide.name })
      expect(read.contents[0].text).toBe(viaTool.structuredContent.text)
      expect(viaTool.content[0].text).toBe(read.contents[0].text)
    }
    await expect(agent.readResource("guide://nothing")).rejects.toMatchObject({ code: -32602 })
  })
})
