import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"

/** A web-standard handler served on an ephemeral port of 127.0.0.1: its address and a way to stop it. */
export interface ServedWeb {
  readonly url: string
  readonly close: () => Promise<void>
}

const requestOf = (incoming: IncomingMessage, origin: string): Request => {
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers))
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item)
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD"
  return new Request(new URL(incoming.url ?? "/", origin), {
    method: incoming.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream, duplex: "half" } : {})
  } as RequestInit)
}

/** Serves a handler over real HTTP, streaming each answer's body as it comes. */
export const serveWeb = async (handler: (request: Request) => Promise<Response>): Promise<ServedWeb> => {
  const server = createServer((incoming, outgoing) => {
    handler(requestOf(incoming, `http://${incoming.headers.host ?? "127.0.0.1"}`))
      .then(async (response) => {
        outgoing.writeHead(response.status, Object.fromEntries(response.headers))
        const reader = response.body?.getReader()
        for (;;) {
          const chunk = await reader?.read()
          if (chunk === undefined || chunk.done) break
          outgoing.write(chunk.value)
        }
        outgoing.end()
      })
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
