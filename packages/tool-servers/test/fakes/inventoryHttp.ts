import { randomUUID } from "node:crypto"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server"
import { type InventoryCall, inventoryServer } from "./inventoryTools.mjs"
import { type ServedWeb, serveWeb } from "./serveWeb.js"

/** How the fake answers before MCP sees a request: as itself, or refusing as a server may (429, 503 or 403). */
export type InventoryMode = "serving" | "rate_limited" | "failing" | "scope_lacking"

/** The fake inventory MCP server over streamable HTTP, its calls, and switches of how it answers. */
export interface InventoryHttp extends ServedWeb {
  readonly calls: Array<InventoryCall>
  mode: InventoryMode
  /** Gives a tool other annotations than its own (none: its own again) and tells every open session its tools changed. */
  readonly remark: (tool: string, hints: Record<string, boolean> | undefined) => Promise<void>
  /** Leaves a tool out of the listing, or lists it again, without telling any session. */
  readonly hide: (tool: string, hidden: boolean) => void
  /** Answers the next `tools/call` requests HTTP 429, one per `Retry-After` value given, before MCP sees them. */
  readonly limitCalls: (...retryAfter: ReadonlyArray<string>) => void
  /** Holds the next `tools/call` request before MCP sees it: `reached` settles when it comes, `release` lets it on. */
  readonly holdCall: () => Hold
  /** Holds the next `tools/list` request before MCP sees it, as `holdCall` does. */
  readonly holdList: () => Hold
  /** Holds the next `DELETE` (a client ending its session) before MCP sees it, as `holdCall` does. */
  readonly holdEnding: () => Hold
  /** Forgets every session, as a server that restarted or expired them: a request naming one is answered 404. */
  readonly forgetSessions: () => Promise<void>
  /** How many sessions were opened (initialized) so far. */
  readonly sessionsOpened: () => number
  /** How many sessions are open now (neither ended by their client nor forgotten). */
  readonly sessionsOpen: () => number
  /** How many requests (POSTs: not event streams resumed) named a session it did not know (answered 404). */
  readonly unknownSessions: () => number
}

/** A request held before MCP sees it: `reached` settles when it comes, `release` lets it on. */
export interface Hold {
  readonly reached: Promise<void>
  readonly release: () => void
}

/** A hold as the server keeps it: `reached` to call when the request comes, and the promise it waits on. */
interface Holding {
  readonly reached: () => void
  readonly until: Promise<void>
}

/** Adds a hold to the queue of the requests it is for, and answers it. */
const holdNext = (holds: Array<Holding>): Hold => {
  let reached = () => {}
  let release = () => {}
  const arrived = new Promise<void>((resolve) => {
    reached = resolve
  })
  holds.push({ reached: () => reached(), until: new Promise<void>((resolve) => (release = resolve)) })
  return { reached: arrived, release: () => release() }
}

/** Waits out the first hold of the queue, if any. */
const waitOut = async (holds: Array<Holding>): Promise<void> => {
  const hold = holds.shift()
  if (hold === undefined) return
  hold.reached()
  await hold.until
}

/** The JSON-RPC method of a request body, if it is one. */
const methodOf = (body: string): string | undefined => {
  try {
    return (JSON.parse(body) as { method?: string }).method
  } catch {
    return undefined
  }
}

/**
 * Serves the fake inventory MCP server at `/mcp` on 127.0.0.1, with sessions (`Mcp-Session-Id`), JSON answers, and
 * `tools.listChanged` announced over each session's event stream. It takes only `Authorization: Bearer <secret>` and
 * `?tenant=<tenant>` (401 otherwise), and answers each request with `x-request-id`.
 */
export const serveInventory = async (secret: string, tenant: string): Promise<InventoryHttp> => {
  const calls: Array<InventoryCall> = []
  const hints: Record<string, Record<string, boolean>> = {}
  const hidden = new Set<string>()
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>()
  const servers = new Map<string, ReturnType<typeof inventoryServer>>()
  const limited: Array<string> = []
  const heldCalls: Array<Holding> = []
  const heldLists: Array<Holding> = []
  const heldEndings: Array<Holding> = []
  let count = 0
  let opened = 0
  let unknown = 0
  const state: { mode: InventoryMode } = { mode: "serving" }
  const open = async () => {
    const server = inventoryServer(secret, calls, hints, { announcesChanges: true, hidden })
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        opened++
        sessions.set(id, transport)
        servers.set(id, server)
      },
      onsessionclosed: (id) => {
        sessions.delete(id)
        servers.delete(id)
      }
    })
    await server.connect(transport)
    return transport
  }
  const served = await serveWeb(async (request) => {
    const url = new URL(request.url)
    if (request.headers.get("authorization") !== `Bearer ${secret}` || url.searchParams.get("tenant") !== tenant)
      return new Response("unknown key", { status: 401 })
    if (state.mode === "rate_limited")
      return new Response("slow down", { status: 429, headers: { "retry-after": "7" } })
    if (state.mode === "failing") return new Response("down", { status: 503 })
    if (state.mode === "scope_lacking") return new Response("the key lacks the scope inventory:read", { status: 403 })
    const body = request.method === "POST" ? await request.text() : undefined
    if (body !== undefined && limited.length > 0 && methodOf(body) === "tools/call")
      return new Response("slow down", { status: 429, headers: { "retry-after": limited.shift()! } })
    if (body !== undefined && methodOf(body) === "tools/call") await waitOut(heldCalls)
    if (body !== undefined && methodOf(body) === "tools/list") await waitOut(heldLists)
    if (request.method === "DELETE") await waitOut(heldEndings)
    const id = request.headers.get("mcp-session-id")
    const transport = id === null ? await open() : sessions.get(id)
    if (transport === undefined) {
      if (body !== undefined) unknown++
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
        { status: 404 }
      )
    }
    const response = await transport.handleRequest(
      request,
      body === undefined ? undefined : { parsedBody: JSON.parse(body) }
    )
    const headers = new Headers(response.headers)
    headers.set("x-request-id", `req-${++count}`)
    return new Response(response.body, { status: response.status, headers })
  })
  const forgetSessions = async () => {
    const open = [...sessions.values()]
    sessions.clear()
    servers.clear()
    await Promise.all(open.map((transport) => transport.close()))
  }
  return {
    ...served,
    calls,
    get mode() {
      return state.mode
    },
    set mode(mode: InventoryMode) {
      state.mode = mode
    },
    remark: async (tool, given) => {
      if (given === undefined) delete hints[tool]
      else hints[tool] = given
      await Promise.all([...servers.values()].map((server) => server.sendToolListChanged()))
    },
    hide: (tool, hide) => {
      if (hide) hidden.add(tool)
      else hidden.delete(tool)
    },
    limitCalls: (...retryAfter) => {
      limited.push(...retryAfter)
    },
    holdCall: () => holdNext(heldCalls),
    holdList: () => holdNext(heldLists),
    holdEnding: () => holdNext(heldEndings),
    forgetSessions,
    sessionsOpened: () => opened,
    sessionsOpen: () => sessions.size,
    unknownSessions: () => unknown,
    close: async () => {
      await forgetSessions()
      await served.close()
    }
  }
}
