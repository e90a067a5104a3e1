/** @runledger/tool-servers: the `ToolServers` port over MCP servers (streamable HTTP and stdio) and OpenAPI APIs. */

export { makeScrubber, resolveReferences, scrubbedMark, shortestScrubbed } from "./secrets.js"
export * as ToolServersLive from "./ToolServersLive.js"
