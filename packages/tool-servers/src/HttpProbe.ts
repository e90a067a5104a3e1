/**
 * A fetch that remembers what the tool server answered the requests it was sent (for an MCP session, its POSTs
 * alone: the session's event stream and its closing run beside its uses and are not noted): the last status and its `Retry-After`, whether the server could be reached at all,
 * whether it no longer knew the session (404 to a request that named one), the JSON-RPC id of the last `tools/call`
 * sent, and the server's own request id from the header the entry's `request_id` names. The MCP client's errors say
 * too little to tell these apart. A held session's probe is `reset` before each use, so it tells of that use alone.
 */
export class HttpProbe {
  status: number | undefined
  retryAfterMs: number | undefined
  unreachable: Error | undefined
  sessionForgotten = false
  callId: string | number | null = null
  serverRequestId: string | undefined

  constructor(
    private readonly requestIdHeader: string | undefined,
    private readonly postsOnly = false
  ) {}

  /** Forgets what earlier uses of the session saw. */
  reset(): void {
    this.status = undefined
    this.retryAfterMs = undefined
    this.unreachable = undefined
    this.sessionForgotten = false
    this.callId = null
    this.serverRequestId = undefined
  }

  /** The fetch to hand the transport. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (this.postsOnly && init?.method !== "POST") return fetch(input, init)
    if (typeof init?.body === "string") this.noteRequest(init.body)
    let response: Response
    try {
      response = await (this.postsOnly ? fetchWithOwnSignal(input, init) : fetch(input, init))
    } catch (error) {
      this.unreachable = error instanceof Error ? error : new Error(String(error))
      throw error
    }
    this.note(response)
    if (response.status === 404 && new Headers(init?.headers).has("mcp-session-id")) this.sessionForgotten = true
    return response
  }

  /** Notes an answer's status, its `Retry-After` and the server's request id. */
  note(response: Response): void {
    this.status = response.status
    this.retryAfterMs = retryAfterOf(response.headers.get("retry-after"))
    if (this.requestIdHeader !== undefined)
      this.serverRequestId = response.headers.get(this.requestIdHeader) ?? this.serverRequestId
  }

  private noteRequest(body: string): void {
    try {
      const message = JSON.parse(body) as { method?: string; id?: string | number }
      if (message.method === "tools/call" && message.id !== undefined) this.callId = message.id
    } catch {
      // A body that is not JSON is no JSON-RPC request to note.
    }
  }
}

/**
 * Sends one request of a held session with a signal of its own that follows the session's: the session's signal
 * lives as long as the session, and `fetch` lets go of the listener it adds to a request's signal only once the
 * request is collected, so a signal shared by every request would gather one listener per request until then
 * (a signal from `AbortSignal.any` follows its source without a listener on it).
 */
export const fetchWithOwnSignal = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
  init?.signal === undefined || init.signal === null
    ? fetch(input, init)
    : fetch(input, { ...init, signal: AbortSignal.any([init.signal]) })

/** A `Retry-After` header in milliseconds: seconds, or an HTTP date. */
export const retryAfterOf = (header: string | null): number | undefined => {
  if (header === null) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000)
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}
