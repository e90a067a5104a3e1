import { createMcpHandler } from "@modelcontextprotocol/server"
import { type InventoryCall, inventoryServer } from "./inventoryTools.mjs"
import { type ServedWeb, serveWeb } from "./serveWeb.js"

/** How the fake answers before MCP sees a request: as itself, or refusing as a server may. */
export type InventoryMode = "serving" | "rate_limited" | "failing"

/** The fake inventory MCP server over streamable HTTP, its calls, and a switch of how it answers. */
export interface InventoryHttp extends ServedWeb {
  readonly calls: Array<InventoryCall>
  /** Annotations that replace a tool's own from the next listing on, by tool name. */
  readonly hints: Record<string, Record<string, boolean>>
  mode: InventoryMode
}

/**
 * Serves the fake inventory MCP server at `/mcp` on 127.0.0.1. It takes only `Authorization: Bearer <secret>` and
 * `?tenant=<tenant>` (401 otherwise), and answers each request with `x-request-id`.
 */
export const serveInventory = async (secret: string, tenant: string): Promise<InventoryHttp> => {
  const calls: Array<InventoryCall> = []
  const hints: Record<string, Record<string, boolean>> = {}
  const mcp = createMcpHandler(() => inventoryServer(secret, calls, hints))
  let count = 0
  const state: { mode: InventoryMode } = { mode: "serving" }
  const served = await serveWeb(async (request) => {
    const url = new URL(request.url)
    if (request.headers.get("authorization") !== `Bearer ${secret}` || url.searchParams.get("tenant") !== tenant)
      return new Response("unknown key", { status: 401 })
    if (state.mode === "rate_limited")
      return new Response("slow down", { status: 429, headers: { "retry-after": "7" } })
    if (state.mode === "failing") return new Response("down", { status: 503 })
    const response = await mcp.fetch(request)
    const headers = new Headers(response.headers)
    headers.set("x-request-id", `req-${++count}`)
    return new Response(response.body, { status: response.status, headers })
  })
  return {
    ...served,
    calls,
    hints,
    get mode() {
      return state.mode
    },
    set mode(mode: InventoryMode) {
      state.mode = mode
    }
  }
}
