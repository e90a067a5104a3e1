import { type AuthInfo, createMcpHandler } from "@modelcontextprotocol/server"
import {
  catalog,
  notFound,
  Rejection,
  type RequestInfo,
  type RunLedgerRuntime,
  reject,
  type WebHandler
} from "@runledger/core"
import { Cause, Effect, Exit, Option } from "effect"
import { buildServer } from "./buildServer.js"
import { type Connection, connect } from "./Connection.js"
import { type Endpoint, endpointOf } from "./Endpoint.js"
import { defaultHeartbeatMs, type McpOptions } from "./McpOptions.js"
import { problemResponse } from "./problemResponse.js"
import { makeToolCatalog } from "./ToolCatalog.js"

/** Logs, at debug level, what the MCP SDK reports: mostly requests it refused as malformed. */
const reportRefusal = (error: Error) =>
  Effect.runFork(Effect.logDebug("The MCP SDK refused or failed a request.", error))

/** Logs a failure of the adapter itself, which the caller sees as `internal`. */
const reportFailure = (failure: unknown) =>
  Effect.runFork(Effect.logError("The MCP endpoint failed before it could handle a request.", failure))

/** The problem of a request that fails before MCP handles it, from a failure or a defect. */
const refusalOf = (cause: Cause.Cause<unknown>): Rejection => {
  const failure = Option.getOrUndefined(Cause.failureOption(cause))
  if (failure instanceof Rejection) return failure
  reportFailure(cause)
  return reject("internal", "Something went wrong inside the runtime before it could handle this request.")
}

/**
 * The MCP endpoints as a web-standard handler: `/mcp`, `/orgs/{org}/mcp`, `/orgs/{org}/playbooks/{playbook}/mcp`
 * and `/directory`, over streamable HTTP without sessions. Each POST is authenticated, then answered by a server
 * built for its caller and endpoint from tools built once from the catalog; a refusal before that is a problem
 * document with its status.
 */
export const toWebHandler = (runtime: RunLedgerRuntime, options: McpOptions = {}): WebHandler => {
  const template = { runtime, tools: makeToolCatalog(options.catalog ?? catalog), shutdown: options.shutdown }
  const connections = new WeakMap<AuthInfo, Connection>()
  const mcp = createMcpHandler(
    ({ authInfo }) => {
      const connection = authInfo === undefined ? undefined : connections.get(authInfo)
      if (connection === undefined) throw new Error("An MCP request reached its server without a connection.")
      return buildServer(template, connection)
    },
    { responseMode: "sse", keepAliveMs: options.heartbeatMs ?? defaultHeartbeatMs, onerror: reportRefusal }
  )

  const serve = async (request: Request, info: RequestInfo | undefined, endpoint: Endpoint): Promise<Response> => {
    if (request.method !== "POST")
      return problemResponse(
        reject("method_not_allowed", "An MCP endpoint takes POST alone: streamable HTTP without sessions."),
        { Allow: "POST" }
      )
    if (options.shutdown?.aborted)
      return problemResponse(
        reject("unavailable", "RunLedger is stopping, so it takes no new request; send it again once it runs.")
      )
    const exit = await runtime.runPromiseExit(connect(request, info, endpoint))
    if (Exit.isFailure(exit)) return problemResponse(refusalOf(exit.cause))
    const connection = exit.value
    const authInfo: AuthInfo = {
      token: "",
      clientId: connection.caller.id,
      scopes: [...connection.caller.permissions]
    }
    connections.set(authInfo, connection)
    return mcp.fetch(request, { authInfo })
  }

  return async (request, info) => {
    try {
      const endpoint = endpointOf(new URL(request.url).pathname)
      if (endpoint === undefined) return problemResponse(notFound("This server has no MCP endpoint at this path."))
      return await serve(request, info, endpoint)
    } catch (error) {
      reportFailure(error)
      return problemResponse(
        reject("internal", "Something went wrong inside the runtime while it handled this request.")
      )
    }
  }
}
