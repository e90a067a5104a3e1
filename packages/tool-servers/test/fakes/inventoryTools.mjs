// The tools of the fake inventory MCP server, shared by its HTTP and stdio forms: what each lists and answers.
import { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server"

/** The tools it lists: one that reads, one that acts, one unmarked, and ones that fail or echo a secret. */
export const inventoryToolList = [
  {
    name: "get_stock_level",
    title: "Stock level",
    description: "Reads the stock of one SKU in one warehouse. Answers on hand, reserved and incoming.",
    inputSchema: {
      type: "object",
      properties: { sku: { type: "string" }, warehouse: { type: "string" }, include_reservations: { type: "boolean" } },
      required: ["sku"],
      additionalProperties: false
    },
    annotations: { readOnlyHint: true, openWorldHint: false }
  },
  {
    name: "create_note",
    description: "Creates a note on a SKU.",
    inputSchema: {
      type: "object",
      properties: { sku: { type: "string" }, text: { type: "string" }, due: { type: "string", format: "date" } },
      required: ["sku", "text"]
    },
    annotations: { destructiveHint: true }
  },
  {
    name: "describe_warehouse",
    description: "Describes a warehouse.",
    inputSchema: { type: "object", properties: { warehouse: { type: "string" } } }
  },
  {
    name: "broken_lookup",
    description: "Reads nothing and always fails.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true }
  },
  {
    name: "whoami",
    description: "Reads which key the server was given.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true }
  }
]

/** The tools a process lists besides, when asked to: one that says which process answers, one that ends it. */
const processTools = [
  {
    name: "process_id",
    description: "Reads the id of the process that answers.",
    inputSchema: { type: "object", properties: {} },
    annotations: { readOnlyHint: true }
  },
  {
    name: "exit_process",
    description: "Ends the process without answering.",
    inputSchema: { type: "object", properties: {} },
    annotations: { destructiveHint: true }
  }
]

/**
 * The low-level server answering those tools; `secret` is the key it says it was given, `calls` records each call,
 * `hints` (read at each listing) gives tools other annotations than their own, and the tools `hidden` names are left
 * out of the listing. `announcesChanges` declares `tools.listChanged` (its owner then sends the notice); `exits` adds
 * the process tools.
 */
export const inventoryServer = (
  secret,
  calls = [],
  hints = {},
  { announcesChanges = false, exits = false, hidden = new Set() } = {}
) => {
  const server = new Server(
    { name: "inventory", version: "1.0.0" },
    { capabilities: { tools: announcesChanges ? { listChanged: true } : {} } }
  )
  const listed = exits ? [...inventoryToolList, ...processTools] : inventoryToolList
  server.setRequestHandler("tools/list", () => ({
    tools: listed
      .filter((tool) => !hidden.has(tool.name))
      .map((tool) => (hints[tool.name] ? { ...tool, annotations: hints[tool.name] } : tool))
  }))
  server.setRequestHandler("tools/call", (request) => {
    const { name, arguments: args = {}, _meta } = request.params
    calls.push({ name, arguments: args, meta: _meta ?? {} })
    const runId = _meta?.["io.runledger/run_id"] ?? null
    if (exits && name === "process_id") return { content: [{ type: "text", text: String(process.pid) }] }
    if (exits && name === "exit_process") process.exit(0)
    switch (name) {
      case "get_stock_level": {
        if (typeof args.sku !== "string")
          throw new ProtocolError(ProtocolErrorCode.InvalidParams, "sku must be a string")
        const stock = { sku: args.sku, on_hand: 41, reserved: 6, incoming: 120, updated_at: "2026-10-04T08:00:00Z" }
        return {
          content: [{ type: "text", text: JSON.stringify({ ok: true, stock, run_id: runId }) }],
          structuredContent: { ok: true, stock, run_id: runId }
        }
      }
      case "create_note":
        return { content: [{ type: "text", text: `Noted on ${args.sku}: ${args.text}` }] }
      case "describe_warehouse":
        return { content: [{ type: "text", text: `The ${args.warehouse ?? "main"} warehouse.` }] }
      case "broken_lookup":
        return { content: [{ type: "text", text: "The stock service is down." }], isError: true }
      case "whoami":
        return { content: [{ type: "text", text: `You gave the key ${secret}.` }] }
      default:
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No tool ${name}`)
    }
  })
  return server
}
