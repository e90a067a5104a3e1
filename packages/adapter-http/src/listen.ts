import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import type { WebHandler } from "@runledger/core"

/** A running server: its base URL, and how to stop it. */
export interface Listening {
  readonly url: string
  readonly close: () => Promise<void>
}

/** A Host header that names a host and port only, so it cannot shift the path of the URL built from it. */
const plainHost = /^[A-Za-z0-9.\-[\]:]+$/

/** The URL of a node:http request, or undefined for a request target or Host that makes none. */
const urlOf = (incoming: IncomingMessage, fallbackHost: string): URL | undefined => {
  const host = incoming.headers.host ?? fallbackHost
  const target = incoming.url ?? "/"
  if (!plainHost.test(host)) return undefined
  try {
    return target.startsWith("/") ? new URL(`http://${host}${target}`) : new URL(target)
  } catch {
    return undefined
  }
}

/** The web-standard request of a node:http request; a GET or HEAD passes its headers on but never a body. */
const toRequest = (incoming: IncomingMessage, url: URL, signal: AbortSignal): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers))
    for (const item of ([] as Array<string>).concat(value ?? [])) headers.append(name, item)
  const method = incoming.method ?? "GET"
  const withBody = method !== "GET" && method !== "HEAD"
  if (!withBody) incoming.resume()
  const init: RequestInit & { duplex?: "half" } = {
    method,
    headers,
    signal,
    ...(withBody ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: "half" } : {})
  }
  return new Request(url, init)
}

/** Writes a web-standard response, streaming its body as it comes (MCP answers are event streams). */
const writeResponse = async (response: Response, outgoing: ServerResponse): Promise<void> => {
  const headers: Record<string, string | Array<string>> = {}
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers["set-cookie"] = cookies
  outgoing.writeHead(response.status, headers)
  outgoing.flushHeaders()
  if (response.body === null) outgoing.end()
  else await pipeline(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream), outgoing)
}

/** Ends a request node:http could not turn into a web-standard one with a bare status. */
const bare = (outgoing: ServerResponse, status: number): void => {
  if (!outgoing.headersSent) outgoing.writeHead(status, { "content-length": "0" })
  outgoing.end()
}

/**
 * Serves a web handler with node:http (127.0.0.1 unless another host is given; port 0 picks a free port), passing
 * each peer's address as the request's `remoteAddress`.
 */
export const listen = (handler: WebHandler, options: { readonly port: number; readonly host?: string }) =>
  new Promise<Listening>((resolve, reject) => {
    const host = options.host ?? "127.0.0.1"
    const server = createServer((incoming, outgoing) => {
      const url = urlOf(incoming, `${host}:${(server.address() as AddressInfo).port}`)
      if (url === undefined) return bare(outgoing, 400)
      const aborted = new AbortController()
      outgoing.on("close", () => {
        if (!outgoing.writableFinished) aborted.abort()
      })
      outgoing.on("finish", () => {
        // The rest of a body the handler did not read (a refused one) is discarded, so the client reads the answer.
        if (!incoming.complete) incoming.removeAllListeners("data").resume()
      })
      let request: Request
      try {
        request = toRequest(incoming, url, aborted.signal)
      } catch {
        // A method the Fetch standard forbids (TRACE, TRACK) makes no web-standard request.
        return bare(outgoing, 405)
      }
      Promise.resolve()
        .then(() => handler(request, { remoteAddress: incoming.socket.remoteAddress }))
        .then((response) => writeResponse(response, outgoing))
        .catch(() => bare(outgoing, 500))
    })
    server.once("error", reject)
    server.listen(options.port, host, () => {
      const { port } = server.address() as AddressInfo
      resolve({
        url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
        close: () =>
          new Promise<void>((done, failed) => {
            server.close((error) => (error ? failed(error) : done()))
            server.closeAllConnections()
          })
      })
    })
  })
