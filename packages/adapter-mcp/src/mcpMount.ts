import type { RunLedgerRuntime, WebMount } from "@runledger/core"
import { endpointOf } from "./Endpoint.js"
import type { McpOptions } from "./McpOptions.js"
import { toWebHandler } from "./toWebHandler.js"

/** The MCP endpoints as a mount for the HTTP adapter: it matches their four paths and hands them to `toWebHandler`. */
export const mcpMount = (runtime: RunLedgerRuntime, options: McpOptions = {}): WebMount => ({
  matches: (pathname) => endpointOf(pathname) !== undefined,
  handle: toWebHandler(runtime, options)
})
