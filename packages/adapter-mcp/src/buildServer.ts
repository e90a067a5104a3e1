import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server"
import type { RunLedgerRuntime } from "@runledger/core"
import type { Connection } from "./Connection.js"
import { callTool } from "./callTool.js"
import { guideResources, readGuide } from "./guideResources.js"
import { instructionsFor } from "./instructions.js"
import type { ToolCatalog } from "./ToolCatalog.js"

/** What every per-request server shares: the runtime, the tools built from the catalog, and the shutdown signal. */
export interface ServerTemplate {
  readonly runtime: RunLedgerRuntime
  readonly tools: ToolCatalog
  readonly shutdown: AbortSignal | undefined
}

/**
 * The MCP server that answers one request of a connection: the tools its caller may call at its endpoint, the
 * guides as resources, and instructions written for it. It is the low-level `Server`, since its tools come from the
 * catalog with their own JSON Schemas and the dispatcher, not the SDK, decodes their arguments.
 */
export const buildServer = (template: ServerTemplate, connection: Connection): Server => {
  const tools = template.tools.toolsFor(connection.endpoint, connection.caller)
  const byName = new Map(tools.map((entry) => [entry.tool.name, entry]))
  const server = new Server(
    { name: connection.settings.serverName, version: connection.settings.serverVersion },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: instructionsFor(connection.endpoint, connection.caller, new Set(byName.keys()))
    }
  )
  server.setRequestHandler("tools/list", () => ({ tools: tools.map((entry) => entry.tool) }))
  server.setRequestHandler("tools/call", async (request, context) => {
    const entry = byName.get(request.params.name)
    if (entry === undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `This connection lists no tool ${request.params.name}; tools/list says which tools it lists.`
      )
    const result = await callTool(
      template.runtime,
      connection,
      entry,
      request.params.arguments ?? {},
      context.mcpReq.signal,
      template.shutdown
    )
    return server.projectCallToolResult(result, undefined)
  })
  server.setRequestHandler("resources/list", () => ({ resources: [...guideResources()] }))
  server.setRequestHandler("resources/read", (request) => readGuide(request.params.uri))
  return server
}
