// The fake inventory MCP server as a process: the runtime starts it and speaks MCP over its standard streams.
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio"
import { inventoryServer } from "./inventoryTools.mjs"

await inventoryServer(process.env.INVENTORY_KEY ?? "").connect(new StdioServerTransport())
