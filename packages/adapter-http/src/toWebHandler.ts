import { randomUUID } from "node:crypto"
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import {
  Authenticator,
  catalog as coreCatalog,
  dispatch,
  guides,
  type Operation,
  originOf,
  type RequestInfo,
  type RunLedgerRuntime,
  RuntimeConfig,
  type RuntimeSettings,
  reject,
  type WebHandler,
  type WebMount
} from "@runledger/core"
import { Cause, Context, Effect, Fiber, Option } from "effect"
import { openApiDocument } from "./openapi/openApiDocument.js"
import { publish } from "./published/PublishedResource.js"
import { publicRoutes } from "./published/publicRoutes.js"
import { callInput } from "./request/callInput.js"
import { credentialOf } from "./request/credentialOf.js"
import { Peer } from "./request/Peer.js"
import { incidentResponse } from "./response/incidentResponse.js"
import { jsonResponse } from "./response/jsonResponse.js"
import { methodNotAllowed } from "./response/methodNotAllowed.js"
import { problemResponse } from "./response/problemResponse.js"
import { withCommonHeaders } from "./response/withCommonHeaders.js"
import { RouteTable } from "./routes/RouteTable.js"
import { inputFields } from "./schema/inputFields.js"

/** How an embedder shapes the HTTP handler. */
export interface HttpHandlerOptions {
  /** Handlers tried first, by pathname, such as the MCP endpoints. */
  readonly mounts?: ReadonlyArray<WebMount>
  /** The operations to serve; the core's catalog when absent. */
  readonly catalog?: ReadonlyArray<Operation>
  /** Aborted once the server stops: from then on every operation answers `unavailable` (HTTP API seed). */
  readonly shutdown?: AbortSignal
}

/** A mount's answer to the web-standard request the app was handed, its body streamed on as the mount writes it. */
const mounted = (mount: WebMount, request: Request, info: RequestInfo | undefined) =>
  Effect.map(
    Effect.promise(() => mount.handle(request, info)),
    HttpServerResponse.fromWeb
  )

/**
 * The catalog as a web-standard handler (HTTP API seed): an `@effect/platform` HttpApp run on the runtime. Mounts
 * first, then the routes that need no key, then every operation served over HTTP under `/v1/orgs/{org}`, each call
 * authenticated and run through the core's dispatcher. Every failure is a problem document; a defect is `internal`
 * with an incident id, logged once.
 */
export const toWebHandler = (runtime: RunLedgerRuntime, options: HttpHandlerOptions = {}): WebHandler => {
  const operations = options.catalog ?? coreCatalog
  const routes = new RouteTable(operations)
  const fields = new Map(operations.map((operation) => [operation, inputFields(operation)]))
  /** The routes that need no key, built with the document once the runtime's settings are known. */
  let servePublic: ReturnType<typeof publicRoutes> | undefined
  const publicRoutesFor = (settings: RuntimeSettings) =>
    (servePublic ??= publicRoutes(
      publish(JSON.stringify(openApiDocument(settings, { catalog: operations, guides })), "application/json"),
      guides
    ))

  const respond = (request: HttpServerRequest.HttpServerRequest, info: RequestInfo | undefined) =>
    Effect.gen(function* () {
      const web = yield* HttpServerRequest.toWeb(request)
      const url = new URL(web.url)
      const mount = options.mounts?.find((candidate) => candidate.matches(url.pathname))
      if (mount !== undefined) return yield* mounted(mount, web, info)
      const settings = yield* RuntimeConfig
      const published = publicRoutesFor(settings)(request, url.pathname, originOf(web, settings.publicUrl))
      if (published !== undefined) return published
      const credential = yield* credentialOf(request)
      const caller = yield* Effect.flatMap(Authenticator, (authenticator) => authenticator.authenticate(credential))
      if (options.shutdown?.aborted)
        return yield* Effect.fail(
          reject("unavailable", "RunLedger is stopping, so it takes no new request; send it again once it runs.")
        )
      const match = routes.match(request.method, url.pathname)
      if (match._tag === "NotFound")
        return yield* Effect.fail(reject("not_found", `This server serves nothing at ${url.pathname}.`))
      if (match._tag === "Malformed")
        return yield* Effect.fail(reject("bad_request", "A path segment holds a malformed percent-encoding."))
      if (match._tag === "MethodNotAllowed") return methodNotAllowed(request.method, match.allow)
      const { operation, parameters } = match
      const input = yield* callInput(request, url, operation, parameters, fields.get(operation)!)
      const answer = yield* dispatch({
        operation,
        caller,
        org: parameters.org,
        playbook: operation.scope === "playbook" ? parameters.playbook : undefined,
        input,
        origin: url.origin
      })
      return yield* jsonResponse(answer.status, answer.output)
    })

  /** The app: each request under a fresh request id, with the peer's address the web handler was given. */
  const app = Effect.gen(function* () {
    const requestId = randomUUID()
    const info = Option.getOrUndefined(yield* Effect.serviceOption(Peer))
    const request = yield* HttpServerRequest.HttpServerRequest
    const response = yield* respond(request.modify({ remoteAddress: info?.remoteAddress }), info).pipe(
      Effect.catchTag("Rejection", (rejection) => Effect.succeed(problemResponse(rejection))),
      Effect.catchAllCause((cause) => Effect.succeed(incidentResponse(requestId, Cause.pretty(cause)))),
      // The platform runs the app uninterruptible. The call runs on a fiber of its own where interruption works (a
      // held request races its wait against a change) and, joined uninterruptibly, to its end when the client goes.
      Effect.interruptible,
      Effect.fork,
      Effect.flatMap(Fiber.join)
    )
    return withCommonHeaders(response, requestId)
  })

  /** The platform's web handler of the app, made on the first request, once the runtime is built. */
  let built: Promise<(request: Request, context?: Context.Context<never>) => Promise<Response>> | undefined
  const webHandler = () => {
    built ??= runtime.runtime().then((ready) => HttpApp.toWebHandlerRuntime(ready)(app))
    return built
  }
  return (request, info) =>
    webHandler()
      .then((handle) => handle(request, info === undefined ? undefined : Context.make(Peer, info)))
      .catch((defect) => {
        // Only a runtime that cannot be built fails outside the app.
        const requestId = randomUUID()
        const incident = incidentResponse(requestId, String((defect as Error)?.stack ?? defect))
        return HttpServerResponse.toWeb(withCommonHeaders(incident, requestId))
      })
}
