import { toWebHandler } from "@runledger/adapter-http"
import type { RunLedgerRuntime } from "@runledger/core"

/** A handler's answer: its status and its body as text. */
export interface InProcessAnswer {
  readonly status: number
  readonly text: string
}

/**
 * A client of a runtime's HTTP handler, in-process (no socket), from a local address (local mode's caller): it sends
 * a JSON body to a path and reads the whole answer.
 */
export const inProcessClient = (runtime: RunLedgerRuntime) => {
  const handler = toWebHandler(runtime)
  return async (method: string, path: string, body: unknown): Promise<InProcessAnswer> => {
    const response = await handler(
      new Request(`http://bench${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      }),
      { remoteAddress: "127.0.0.1" }
    )
    return { status: response.status, text: await response.text() }
  }
}
