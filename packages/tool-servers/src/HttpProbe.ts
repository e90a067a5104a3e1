/**
 * A fetch that remembers what the tool server answered: the last status and its `Retry-After`, whether the server
 * could be reached at all, the JSON-RPC id of the last `tools/call` sent, and the server's own request id from the
 * header the entry's `request_id` names. The MCP client's errors say too little to tell these apart.
 */
export class HttpProbe {
  status: number | undefined
  retryAfterMs: number | undefined
  unreachable: Error | undefined
  callId: string | number | null = null
  serverRequestId: string | undefined

  constructor(private readonly requestIdHeader: string | undefined) {}

  /** The fetch to hand the transport. */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (typeof init?.body === "string") this.noteRequest(init.body)
    let response: Response
    try {
      response = await fetch(input, init)
    } catch (error) {
      this.unreachable = error instanceof Error ? error : new Error(String(error))
      throw error
    }
    this.note(response)
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

/** A `Retry-After` header in milliseconds: seconds, or an HTTP date. */
export const retryAfterOf = (header: string | null): number | undefined => {
  if (header === null) return undefined
  const seconds = Number(header)
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000)
  const at = Date.parse(header)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}
