import { createServer } from "node:http"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import type { WebHandler } from "@runledger/core"
import { Cause, Exit, Layer, ManagedRuntime } from "effect"
import { webHandlerApp } from "./webHandlerApp.js"

/** A running server: its base URL, and how to stop it. */
export interface Listening {
  readonly url: string
  /**
   * Stops listening and closes the connections: idle ones at once, those still writing an answer after
   * `graceMillis` (default 0: every connection at once).
   */
  readonly close: (graceMillis?: number) => Promise<void>
}

/**
 * Serves a web handler with `@effect/platform-node`'s node:http server (127.0.0.1 unless another host is given;
 * port 0 picks a free port), passing each peer's address as the request's `remoteAddress`. It rejects with the
 * error node:http gives when it cannot listen.
 */
export const listen = async (
  handler: WebHandler,
  options: { readonly port: number; readonly host?: string }
): Promise<Listening> => {
  const host = options.host ?? "127.0.0.1"
  const server = createServer()
  const authority = () => {
    const { port } = server.address() as { readonly port: number }
    return `${host.includes(":") ? `[${host}]` : host}:${port}`
  }
  const serving = ManagedRuntime.make(
    HttpServer.serve(webHandlerApp(handler, authority)).pipe(
      Layer.provideMerge(NodeHttpServer.layerServer(() => server, { port: options.port, host })),
      Layer.mapError((error) => error.cause)
    )
  )
  const started = await serving.runPromiseExit(HttpServer.HttpServer)
  if (Exit.isFailure(started)) {
    await serving.dispose()
    throw Cause.squash(started.cause)
  }
  return {
    url: `http://${authority()}`,
    close: (graceMillis = 0) =>
      new Promise<void>((done, failed) => {
        const cut = setTimeout(() => server.closeAllConnections(), graceMillis)
        server.close((error) => {
          clearTimeout(cut)
          return error ? failed(error) : done()
        })
        server.closeIdleConnections()
      }).then(() => serving.dispose())
  }
}
