import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest, NodeStream } from "@effect/platform-node"
import type { WebHandler } from "@runledger/core"
import { Effect, Either, identity, Option, Stream } from "effect"

/** A Host header that names a host and port only, so it cannot shift the path of the URL built from it. */
const plainHost = /^[A-Za-z0-9.\-[\]:]+$/

/** The URL of a request, or undefined for a request target or Host that makes none. */
const urlOf = (request: HttpServerRequest.HttpServerRequest, fallbackHost: string): URL | undefined => {
  const host = request.headers.host ?? fallbackHost
  if (!plainHost.test(host)) return undefined
  try {
    return request.url.startsWith("/") ? new URL(`http://${host}${request.url}`) : new URL(request.url)
  } catch {
    return undefined
  }
}

/**
 * An HttpApp that answers each request with a web handler: the request as a web-standard one (a GET or HEAD passes
 * its headers on but never a body), with the peer's address, and the handler's response with its body streamed as it
 * comes (MCP answers are event streams). The request's `signal` aborts when the client goes before its answer ends.
 * A request target or Host that makes no URL gets a bare 400, and a method the Fetch standard forbids (TRACE,
 * TRACK) a bare 405, before the handler.
 */
export const webHandlerApp = (handler: WebHandler, fallbackHost: () => string) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const url = urlOf(request, fallbackHost())
    if (url === undefined) return HttpServerResponse.empty({ status: 400 })
    const incoming = NodeHttpServerRequest.toIncomingMessage(request)
    const outgoing = NodeHttpServerRequest.toServerResponse(request)
    const aborted = new AbortController()
    outgoing.on("close", () => outgoing.writableFinished || aborted.abort())
    // The rest of a body the handler did not read (a refused one) is discarded, so the client reads the answer.
    outgoing.on("finish", () => incoming.complete || incoming.resume())
    // The body is read on a fiber of its own, which must stop when the handler cancels the body; it would inherit
    // the uninterruptible flags the app runs under.
    const runtime = yield* Effect.interruptible(Effect.runtime<never>())
    const withBody = request.method !== "GET" && request.method !== "HEAD"
    // Read without destroying the request when the handler stops early, which would reset the connection.
    const body = NodeStream.fromReadable(() => incoming, identity, { closeOnDone: false })
    const web = Either.try(
      () =>
        new Request(url, {
          method: request.method,
          headers: request.headers,
          signal: aborted.signal,
          ...(withBody ? { body: Stream.toReadableStreamRuntime(body, runtime), duplex: "half" } : {})
        } as RequestInit)
    )
    if (Either.isLeft(web)) return HttpServerResponse.empty({ status: 405 })
    const remoteAddress = Option.getOrUndefined(request.remoteAddress)
    const response = yield* Effect.interruptible(Effect.promise(() => handler(web.right, { remoteAddress })))
    return HttpServerResponse.fromWeb(response)
  })
