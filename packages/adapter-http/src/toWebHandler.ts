import { randomUUID } from "node:crypto"
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
  type RuntimeSettings,
  reject,
  type WebHandler,
  type WebMount
} from "@runledger/core"
import { Cause, Effect } from "effect"
import { openApiDocument } from "./openapi/openApiDocument.js"
import { publish } from "./published/PublishedResource.js"
import { publicRoutes } from "./published/publicRoutes.js"
import { callInput } from "./request/callInput.js"
import { credentialOf } from "./request/credentialOf.js"
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
}

/**
 * The catalog as a web-standard handler (HTTP API seed): mounts first, then the routes that need no key, then
 * every operation served over HTTP under `/v1/orgs/{org}`, each call authenticated and run through the core's
 * dispatcher. Every failure is a problem document; a defect is `internal` with an incident id, logged once.
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

  const respond = (
    request: Request,
    info: RequestInfo | undefined
  ): Effect.Effect<Response, Rejection, RunLedgerServices> =>
    Effect.gen(function* () {
      const settings = yield* RuntimeConfig
      const url = new URL(request.url)
      const published = publicRoutesFor(settings)(request, url.pathname, originOf(request, settings.publicUrl))
      if (published !== undefined) return published
      const credential = yield* credentialOf(request, info)
      const caller = yield* Effect.flatMap(Authenticator, (authenticator) => authenticator.authenticate(credential))
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
      return jsonResponse(answer.status, answer.output, request.method === "HEAD")
    })

  return async (request, info) => {
    const requestId = randomUUID()
    try {
      const mount = options.mounts?.find((candidate) => candidate.matches(new URL(request.url).pathname))
      const response =
        mount !== undefined
          ? await mount.handle(request, info)
          : await runtime.runPromise(
              respond(request, info).pipe(
                Effect.catchTag("Rejection", (rejection) => Effect.succeed(problemResponse(rejection))),
                Effect.catchAllCause((cause) => Effect.succeed(incidentResponse(requestId, Cause.pretty(cause))))
              )
            )
      return withCommonHeaders(response, requestId)
    } catch (defect) {
      return withCommonHeaders(incidentResponse(requestId, String((defect as Error)?.stack ?? defect)), requestId)
    }
  }
}
