import { RunLedger, type RunLedgerRuntime, type RuntimeSettings } from "@runledger/core"
import { HttpModelProvider } from "@runledger/model-providers"
import * as MemoryStore from "@runledger/store-memory"
import { ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ScriptedModel, startScriptedModel } from "../../model-providers/test/scriptedModel.js"
import { toWebHandler } from "../src/index.js"
import { connectClient } from "./fixture.js"
import { type Served, serve } from "./serve.js"

/** A runtime on the memory store with the HTTP model provider, its MCP handler served on 127.0.0.1. */
const serveModels = async (settings: Partial<RuntimeSettings>) => {
  const runtime: RunLedgerRuntime = ManagedRuntime.make(
    RunLedger.onStore(MemoryStore.layer, settings, undefined, HttpModelProvider.layer)
  )
  const served: Served = await serve(toWebHandler(runtime))
  return {
    url: served.url,
    close: async () => {
      await served.close()
      await runtime.dispose()
    }
  }
}

const lists = (model: ScriptedModel) => model.received.filter((request) => request.method === "GET").length

describe("list_models through an MCP client", () => {
  let gateway: ScriptedModel
  let anthropic: ScriptedModel
  let failing: ScriptedModel
  let served: Awaited<ReturnType<typeof serveModels>>
  beforeAll(async () => {
    gateway = await startScriptedModel("openai")
    anthropic = await startScriptedModel("anthropic")
    failing = await startScriptedModel("openai")
    gateway.list({
      body: {
        object: "list",
        data: [
          { id: "anthropic/claude-haiku-4-5", created: 1760486400, owned_by: "anthropic" },
          { id: "Qwen/Qwen3-14B", created: 0, owned_by: "qwen" },
          { id: "has space", created: 0 },
          { id: "arn:aws:bedrock:eu-west-1:123:model/x", created: 0 }
        ]
      }
    })
    anthropic.list({
      body: {
        data: [
          { id: "claude-sonnet-4-5-20250929", display_name: "Claude Sonnet 4.5", created_at: "2025-09-29T00:00:00Z" },
          { id: "claude-haiku-4-5", display_name: "Claude Haiku 4.5", created_at: "2025-10-15T00:00:00Z" },
          { id: "claude-retired", display_name: "Claude Retired", created_at: "2024-01-01T00:00:00Z" }
        ],
        has_more: false
      }
    })
    failing.list({ status: 500, body: { error: { message: "down" } } })
    served = await serveModels({
      models: {
        providers: [
          { name: "gateway", api: "openai", baseUrl: gateway.baseUrl, apiKey: "sk-gateway-list-key" },
          { name: "anthropic", api: "anthropic", baseUrl: anthropic.baseUrl, apiKey: "sk-anthropic-list-key" },
          { name: "bedrock", api: "openai", baseUrl: "http://127.0.0.1:1/v1", lists: false },
          {
            name: "house",
            api: "openai",
            baseUrl: "http://127.0.0.1:1/v1",
            lists: false,
            models: [
              { id: "tiny", name: "Tiny\nModel", contextWindow: 8192, maxTokens: 1024 },
              { id: "sonnet", name: "Claude Sonnet 4.5" }
            ]
          },
          { name: "flaky", api: "openai", baseUrl: failing.baseUrl }
        ],
        aliases: {
          fast: "gateway/anthropic/claude-haiku-4-5",
          "openai/*": "gateway/openai/*",
          "anthropic/claude-retired": "anthropic/claude-haiku-4-5",
          "ghost/model": "missing/model"
        }
      }
    })
  }, 60_000)
  afterAll(async () => {
    await served?.close()
    await Promise.all([gateway?.close(), anthropic?.close(), failing?.close()])
  })

  it("lists models, aliases and wildcards sorted by id, leaving out what the seed leaves out", async () => {
    const client = await connectClient("v2 at 2026-07-28", `${served.url}/mcp`)
    const result = await client.callTool("list_models", {})
    const list = result.structuredContent
    expect(list.data).toEqual([
      {
        id: "anthropic/claude-haiku-4-5",
        object: "model",
        created: 1760486400,
        owned_by: "anthropic",
        name: "Claude Haiku 4.5"
      },
      {
        id: "anthropic/claude-retired",
        object: "model",
        created: 0,
        owned_by: "anthropic",
        alias: true,
        resolved_to: "anthropic/claude-haiku-4-5"
      },
      {
        id: "anthropic/claude-sonnet-4-5-20250929",
        object: "model",
        created: 1759104000,
        owned_by: "anthropic",
        name: "Claude Sonnet 4.5"
      },
      { id: "bedrock/*", object: "model", created: 0, owned_by: "bedrock", pattern: true },
      {
        id: "fast",
        object: "model",
        created: 0,
        owned_by: "gateway",
        alias: true,
        resolved_to: "gateway/anthropic/claude-haiku-4-5"
      },
      { id: "gateway/Qwen/Qwen3-14B", object: "model", created: 0, owned_by: "gateway" },
      { id: "gateway/anthropic/claude-haiku-4-5", object: "model", created: 1760486400, owned_by: "gateway" },
      { id: "house/sonnet", object: "model", created: 0, owned_by: "house", name: "Claude Sonnet 4.5" },
      { id: "house/tiny", object: "model", created: 0, owned_by: "house", context_window: 8192, max_tokens: 1024 },
      {
        id: "openai/*",
        object: "model",
        created: 0,
        owned_by: "gateway",
        alias: true,
        resolved_to: "gateway/openai/*",
        pattern: true
      }
    ])
    expect([list.object, list.catalog_status, list.narrowed]).toEqual(["list", "partial", false])
    expect(Date.parse(list.listed_at)).not.toBeNaN()
    expect(result.content[0].text).toBe(
      "This server can call 8 models through anthropic, gateway, and house: Claude Haiku 4.5, claude-retired, Claude Sonnet 4.5 (anthropic), fast, Qwen3-14B, claude-haiku-4-5, Claude Sonnet 4.5 (house), and tiny. It can also call any bedrock and openai model. The list may be incomplete: a provider could not be asked just now."
    )
    expect(JSON.stringify(result)).not.toContain("sk-gateway-list-key")
    await client.close()
  })

  it("keeps each provider's list, so a second call asks no provider again", async () => {
    const client = await connectClient("v1", `${served.url}/mcp`)
    await client.callTool("list_models", {})
    const asked = [lists(gateway), lists(anthropic), lists(failing)]
    await client.callTool("list_models", {})
    expect([lists(gateway), lists(anthropic), lists(failing)]).toEqual(asked)
    await client.close()
  })

  it("lists one provider alone, and refuses a provider that is not a prefix", async () => {
    const client = await connectClient("v2 at 2025-06-18", `${served.url}/mcp`)
    const anthropicOnly = await client.callTool("list_models", { provider: "anthropic" })
    expect(anthropicOnly.structuredContent.data.map((entry: any) => entry.id)).toEqual([
      "anthropic/claude-haiku-4-5",
      "anthropic/claude-retired",
      "anthropic/claude-sonnet-4-5-20250929"
    ])
    expect(anthropicOnly.structuredContent.catalog_status).toBe("complete")
    const refused = await client.callTool("list_models", { provider: "Not A Prefix" })
    expect(refused.isError).toBe(true)
    expect(JSON.parse(refused.content[1].text)).toMatchObject({ reason: "invalid_input" })
    await client.close()
  })

  it("is served on /mcp and the org endpoint, not on a playbook's", async () => {
    const root = await connectClient("v2 at 2026-07-28", `${served.url}/mcp`)
    await root.callTool("create_playbook", { playbook: "models-pb", name: "Models" })
    const playbookTools = await connectClient("v2 at 2026-07-28", `${served.url}/orgs/local/playbooks/models-pb/mcp`)
    expect((await playbookTools.listTools()).map((tool) => tool.name)).not.toContain("list_models")
    const org = await connectClient("v2 at 2026-07-28", `${served.url}/orgs/local/mcp`)
    const tool = (await org.listTools()).find((listed) => listed.name === "list_models")
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true })
    await Promise.all([root.close(), playbookTools.close(), org.close()])
  })
})

describe("list_models narrowed by the allow list", () => {
  let gateway: ScriptedModel
  let served: Awaited<ReturnType<typeof serveModels>>
  beforeAll(async () => {
    gateway = await startScriptedModel("openai")
    gateway.list({ body: { object: "list", data: [{ id: "small" }, { id: "large" }] } })
    served = await serveModels({
      models: {
        providers: [{ name: "gateway", api: "openai", baseUrl: gateway.baseUrl }],
        aliases: { quick: "gateway/small" },
        allowedModels: ["gateway/small"]
      }
    })
  })
  afterAll(async () => {
    await served?.close()
    await gateway?.close()
  })

  it("lists only what the operator allows, and says so", async () => {
    const client = await connectClient("v2 at 2026-07-28", `${served.url}/mcp`)
    const result = await client.callTool("list_models", {})
    expect(result.structuredContent.data.map((entry: any) => entry.id)).toEqual(["gateway/small", "quick"])
    expect([result.structuredContent.narrowed, result.structuredContent.catalog_status]).toEqual([true, "complete"])
    expect(result.content[0].text).toBe(
      "This server can call 2 models through gateway: small and quick. It lists only the models its operator allows."
    )
    await client.close()
  })
})
