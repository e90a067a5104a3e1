// The fake inventory MCP server as a process: the runtime starts it and speaks MCP over its standard streams.
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio"
import { inventoryServer } from "./inventoryTools.mjs"

// INVENTORY_EXITS=1 adds the tools that tell its process id and end it.
await inventoryServer(process.env.INVENTORY_KEY ?? "", [], {}, { exits: process.env.INVENTORY_EXITS === "1" }).connect(
  new StdioServerTransport()
)

// INVENTORY_STUBBORN=1 keeps the process running after its input ends, as a server that ignores it would.
if (process.env.INVENTORY_STUBBORN === "1") setInterval(() => undefined, 1_000)
