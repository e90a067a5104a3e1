/** @runledger/adapter-mcp: the operation catalog as MCP tools, with the guides as resources, over streamable HTTP. */
export { stoppedMessage } from "./callTool.js"
export { defaultHeartbeatMs, type McpOptions } from "./McpOptions.js"
export { mcpMount } from "./mcpMount.js"
export { toWebHandler } from "./toWebHandler.js"
