import { type ServerFailure, ToolServerFailed } from "@runledger/core"

/** The `because` of an HTTP status a server answered instead of serving: 401, 403, 429 or another failure. */
export const failureOfStatus = (status: number): ServerFailure =>
  status === 401 ? "key_refused" : status === 403 ? "scope_lacking" : status === 429 ? "rate_limited" : "failing"

/** The words of each `because`, before the server's own. */
const words: Record<ServerFailure, string> = {
  unreachable: "The tool server could not be reached",
  failing: "The tool server failed",
  rate_limited: "The tool server asked the runtime to slow down",
  key_refused: "The tool server did not accept the key the runtime gives it; only the operator can fix that",
  scope_lacking: "The tool server answered 403: the credential lacks a scope it needs"
}

/** A server that could not be used, in words cut to 1 KiB and scrubbed. */
export const serverFailed = (
  server: string,
  because: ServerFailure,
  cause: string | undefined,
  scrub: (text: string) => string,
  retryAfterMs?: number
): ToolServerFailed =>
  new ToolServerFailed({
    server,
    because,
    detail: cut(scrub(cause === undefined || cause === "" ? `${words[because]}.` : `${words[because]}: ${cause}`)),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs })
  })

/** A text cut to 1 KiB of UTF-8. */
export const cut = (text: string, bytes = 1024): string => {
  const encoded = new TextEncoder().encode(text)
  if (encoded.length <= bytes) return text
  return `${new TextDecoder().decode(encoded.slice(0, bytes - 3)).replace(/\uFFFD$/, "")}…`
}

/** The message of a thrown value. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))
