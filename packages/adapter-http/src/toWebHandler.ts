import { randomUUID } from "node:crypto"
import { HttpServerResponse } from "@effect/platform"
import {
  Authenticator,
  catalog as coreCatalog,
  dispatch,
  guides,
  type Operation,
  originOf,
  type Rejection,
  type RequestInfo,
  type RunLedgerRuntime,
  type RunLedgerServices,
  RuntimeConfig,
  reject,
  type WebHandler,
  type WebMount
} from "@runledger/core"
import { Cause, Context, Effect, Either, Exit, Runtime } from "effect"
import { openApiDocument } from "./openapi/openApiDocument.js"
import { publish } from "./published/PublishedResource.js"
import { publicRoutes } from "./published/publicRoutes.js"
import { callInput, inputPlacesOf } from "./request/callInput.js"
import { credentialOf } from "./request/credentialOf.js"
import { incidentResponse } from "./response/incidentResponse.js"
import { jsonResponse } from "./response/jsonResponse.js"
import { methodNotAllowed } from "./response/methodNotAllowed.js"
import { problemResponse } from "./response/problemResponse.js"
import { withCommonHeaders } from "./response/withCommonHeaders.js"
import { RouteTable } from "./routes/RouteTable.js"

/** How an embedder shapes the HTTP handler. */
export interface HttpHandlerOptions {
  /** Handlers tried first, by pathname, such as the MCP endpoints. */
  readonly mounts?: ReadonlyArray<WebMount>
  /** The operations to serve; the core's catalog when absent. */
  readonly catalog?: ReadonlyArray<Operation>
  /** Aborted once the server stops: from then on every operation answers `unavailable` (HTTP API seed). */
  readonly shutdown?: AbortSignal
}

/** An answer before it is made web-standard: built here, or a mount's taken in with `fromWeb` (its body streamed on). */
type Answer = HttpServerResponse.HttpServerResponse

/** The answer to a call that ended with `exit`: its response, its rejection as a problem, or an incident. */
const answerOf = (exit: Exit.Exit<Answer, Rejection>, requestId: string): Answer => {
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOrCause(exit.cause)
  return Either.isLeft(failure) && failure.left._tag === "Rejection"
    ? problemResponse(failure.left)
    : incidentResponse(requestId, Cause.pretty(exit.cause))
}

/**
 * The catalog as a web-standard handler (HTTP API seed; ADR 0101, 0237). Mounts first, then the routes that need no
 * key, then every operation served over HTTP under `/v1/orgs/{org}`: each call authenticated, routed, its input read
 * and run through the core's dispatcher as one effect on the runtime, on a fiber of its own that the client's going
 * does not interrupt (a held request races its wait against a change inside it). Every failure is a problem
 * document; a defect is `internal` with an incident id, logged once. Answers are `@effect/platform`
 * HttpServerResponses made web-standard, a HEAD's without its body.
 */
export const toWebHandler = (runtime: RunLedgerRuntime, options: HttpHandlerOptions = {}): WebHandler => {
  const operations = options.catalog ?? coreCatalog
  const routes = new RouteTable(operations)
  const places = new Map(operations.map((operation) => [operation, inputPlacesOf(operation)]))

  /** The handler on the built runtime, with the routes that need no key built from its settings. */
  const serve = (ready: Runtime.Runtime<RunLedgerServices>) => {
    const settings = Context.get(ready.context, RuntimeConfig)
    const authenticator = Context.get(ready.context, Authenticator)
    const servePublic = publicRoutes(
      publish(JSON.stringify(openApiDocument(settings, { catalog: operations, guides })), "application/json"),
      guides
    )
    const run = Runtime.runPromiseExit(ready)

    /** A call of an operation: its credential authenticated, its route matched, its input read and dispatched. */
    const call = (request: Request, url: URL, info: RequestInfo | undefined) =>
      Effect.flatMap(credentialOf(request, info?.remoteAddress), (credential) =>
        Effect.flatMap(
          authenticator.authenticate(credential),
          (caller): Effect.Effect<Answer, Rejection, RunLedgerServices> => {
            if (options.shutdown?.aborted)
              return Effect.fail(
                reject("unavailable", "RunLedger is stopping, so it takes no new request; send it again once it runs.")
              )
            const match = routes.match(request.method, url.pathname)
            if (match._tag === "NotFound")
              return Effect.fail(reject("not_found", `This server serves nothing at ${url.pathname}.`))
            if (match._tag === "Malformed")
              return Effect.fail(reject("bad_request", "A path segment holds a malformed percent-encoding."))
            if (match._tag === "MethodNotAllowed") return Effect.succeed(methodNotAllowed(request.method, match.allow))
            const { operation, parameters } = match
            return callInput(request, url, operation, parameters, places.get(operation)!).pipe(
              Effect.flatMap((input) =>
                dispatch({
                  operation,
                  caller,
                  org: parameters.org,
                  playbook: operation.scope === "playbook" ? parameters.playbook : undefined,
                  input,
                  origin: url.origin
                })
              ),
              Effect.map((answer) => jsonResponse(answer.status, answer.output))
            )
          }
        )
      )

    /** What a mount answers, its defect an incident. */
    const mounted = (mount: WebMount, request: Request, info: RequestInfo | undefined, requestId: string) =>
      new Promise<Response>((resolve) => resolve(mount.handle(request, info))).then(
        HttpServerResponse.fromWeb,
        (defect: unknown) => incidentResponse(requestId, Cause.pretty(Cause.die(defect)))
      )

    const respond = (request: Request, info: RequestInfo | undefined, requestId: string): Promise<Answer> => {
      const url = new URL(request.url)
      const mount = options.mounts?.find((candidate) => candidate.matches(url.pathname))
      if (mount !== undefined) return mounted(mount, request, info, requestId)
      const published = servePublic(request, url.pathname, originOf(request, settings.publicUrl))
      if (published !== undefined) return Promise.resolve(published)
      return run(call(request, url, info)).then((exit) => answerOf(exit, requestId))
    }

    /** Each request under a fresh request id; a HEAD's answer without its body. */
    return (request: Request, info: RequestInfo | undefined) => {
      const requestId = randomUUID()
      return respond(request, info, requestId).then((response) =>
        HttpServerResponse.toWeb(withCommonHeaders(response, requestId), {
          withoutBody: request.method === "HEAD",
          runtime: ready
        })
      )
    }
  }

  /** The handler, made on the first request, once the runtime is built. */
  let served: Promise<ReturnType<typeof serve>> | undefined
  return (request, info) => {
    served ??= runtime.runtime().then(serve)
    return served
      .then((handle) => handle(request, info))
      .catch((defect) => {
        // Only a runtime that cannot be built fails outside the handler.
        const requestId = randomUUID()
        const incident = incidentResponse(requestId, String((defect as Error)?.stack ?? defect))
        return HttpServerResponse.toWeb(withCommonHeaders(incident, requestId))
      })
  }
}
