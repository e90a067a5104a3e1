import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server"
import { type ServedWeb, serveWeb } from "../../../tool-servers/test/fakes/serveWeb.js"

/** One call the fake chat server took: the tool, its arguments and its `_meta`. */
export interface ChatCall {
  readonly tool: string
  readonly arguments: Record<string, unknown>
  readonly meta: Record<string, unknown>
}

/**
 * How the fake chat server answers: `serving`; `rate_limited` (HTTP 429 with `Retry-After: 7`) or `failing`
 * (HTTP 503) before MCP sees a request; `tool_error` (the tool's own error); `refusing` (JSON-RPC -32602, the
 * arguments refused); `unlisted` (the tool left out of the listing); `hanging` (a call never answered until the
 * server closes).
 */
export type ChatMode = "serving" | "rate_limited" | "failing" | "tool_error" | "refusing" | "unlisted" | "hanging"

/** A message someone posted in a room, as `list_thread` lists it: its id, author, words and the message it answers. */
export interface ChatReply {
  readonly room: string
  readonly id: string
  readonly author: string
  readonly body: string
  readonly parent_id?: string
}

/** The fake chat MCP server over streamable HTTP, the calls it took, and a switch of how it answers. */
export interface ChatServer extends ServedWeb {
  readonly calls: Array<ChatCall>
  /** The messages people posted, which `list_thread` lists oldest first. */
  readonly replies: Array<ChatReply>
  mode: ChatMode
}

/** The tool that sends a message, and one that sends nothing the runtime's operator allows. */
const tools: Array<{
  readonly name: string
  readonly description: string
  readonly inputSchema: { type: "object"; properties: Record<string, { type: string }> }
  readonly annotations: Record<string, boolean>
}> = [
  {
    name: "send_message",
    description: "Posts a message in a room and answers where it landed.",
    inputSchema: { type: "object", properties: { room: { type: "string" }, body: { type: "string" } } },
    annotations: { destructiveHint: false }
  },
  {
    name: "list_thread",
    description: "Lists the messages posted in a room after a message id, oldest first.",
    inputSchema: { type: "object", properties: { room: { type: "string" }, after: { type: "string" } } },
    annotations: { readOnlyHint: true }
  },
  {
    name: "delete_room",
    description: "Deletes a room.",
    inputSchema: { type: "object", properties: { room: { type: "string" } } },
    annotations: { destructiveHint: true }
  }
]

/**
 * Serves a fake chat MCP server at `/mcp` on 127.0.0.1: `send_message` answers `{room_id, message_id}` as structured
 * content (the room from `room` or `to`, the message numbered), unless the mode says otherwise; `list_thread`
 * answers `{items}`, the room's replies after the one `after` names, oldest first.
 */
export const serveChat = async (): Promise<ChatServer> => {
  const calls: Array<ChatCall> = []
  const replies: Array<ChatReply> = []
  const state: { mode: ChatMode } = { mode: "serving" }
  const hanging: Array<() => void> = []
  const chat = () => {
    const server = new Server({ name: "chat", version: "1.0.0" }, { capabilities: { tools: {} } })
    server.setRequestHandler("tools/list", () => ({
      tools: state.mode === "unlisted" ? tools.filter((tool) => tool.name !== "send_message") : tools
    }))
    server.setRequestHandler("tools/call", async (request) => {
      const { name, arguments: args = {}, _meta } = request.params
      calls.push({ tool: name, arguments: args, meta: _meta ?? {} })
      if (state.mode === "refusing") throw new ProtocolError(ProtocolErrorCode.InvalidParams, "room must name a room")
      if (state.mode === "hanging") await new Promise<void>((resolve) => hanging.push(resolve))
      if (state.mode === "tool_error")
        return { content: [{ type: "text", text: "The room is archived." }], isError: true }
      if (name === "list_thread") {
        const room = replies.filter((reply) => reply.room === args.room)
        const after = room.findIndex((reply) => reply.id === args.after)
        const items = room.slice(after + 1).map(({ room: _room, ...item }) => item)
        return { content: [{ type: "text", text: JSON.stringify({ items }) }], structuredContent: { items } }
      }
      const landed = { room_id: String(args.room ?? args.to), message_id: `m-${calls.length}` }
      return { content: [{ type: "text", text: JSON.stringify(landed) }], structuredContent: landed }
    })
    return server
  }
  const mcp = createMcpHandler(chat)
  const served = await serveWeb(async (request) => {
    if (state.mode === "rate_limited")
      return new Response("slow down", { status: 429, headers: { "retry-after": "7" } })
    if (state.mode === "failing") return new Response("down", { status: 503 })
    return mcp.fetch(request)
  })
  return {
    ...served,
    calls,
    replies,
    get mode() {
      return state.mode
    },
    set mode(mode: ChatMode) {
      state.mode = mode
    },
    close: async () => {
      for (const release of hanging.splice(0)) release()
      await served.close()
    }
  }
}
