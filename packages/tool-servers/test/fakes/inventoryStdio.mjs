// The fake inventory MCP server as a process: the runtime starts it and speaks MCP over its standard streams.
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio"
import { inventoryServer } from "./inventoryTools.mjs"

// INVENTORY_EXITS=1 adds the tools that tell its process id and end it.
await inventoryServer(process.env.INVENTORY_KEY ?? "", [], {}, { exits: process.env.INVENTORY_EXITS === "1" }).connect(
  new StdioServerTransport()
)
