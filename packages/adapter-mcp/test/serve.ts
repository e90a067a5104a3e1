import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"
import type { WebHandler } from "@runledger/core"

/** A web handler served over HTTP on 127.0.0.1, for tests: its base address and a way to stop it. */
export interface Served {
  readonly url: string
  readonly close: () => Promise<void>
}

/** The web-standard request of a Node one; it aborts when the client goes away before the answer ends. */
const requestOf = (incoming: IncomingMessage, outgoing: ServerResponse, origin: string): Request => {
  const abort = new AbortController()
  outgoing.on("close", () => {
    if (!outgoing.writableFinished) abort.abort()
  })
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers))
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item)
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD"
  return new Request(new URL(incoming.url ?? "/", origin), {
    method: incoming.method,
    headers,
    signal: abort.signal,
    ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream, duplex: "half" } : {})
  } as RequestInit)
}

/** Writes a web-standard response to a Node one, streaming its body as it comes. */
const write = async (response: Response, outgoing: ServerResponse): Promise<void> => {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers))
  outgoing.flushHeaders()
  if (response.body === null) {
    outgoing.end()
    return
  }
  const reader = response.body.getReader()
  outgoing.on("close", () => void reader.cancel().catch(() => {}))
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    outgoing.write(value)
  }
  outgoing.end()
}

/** Serves a handler on an ephemeral port of 127.0.0.1, passing each request's peer address. */
export const serve = async (handler: WebHandler): Promise<Served> => {
  const server = createServer((incoming, outgoing) => {
    const origin = `http://${incoming.headers.host ?? "127.0.0.1"}`
    handler(requestOf(incoming, outgoing, origin), { remoteAddress: incoming.socket.remoteAddress })
      .then((response) => write(response, outgoing))
      .catch(() => outgoing.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
