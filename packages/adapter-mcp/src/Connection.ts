import {
  Authenticator,
  type Caller,
  forbidden,
  isLoopback,
  originOf,
  type Rejection,
  type RequestInfo,
  RuntimeConfig,
  type RuntimeSettings,
  reject
} from "@runledger/core"
import { Effect } from "effect"
import type { Endpoint } from "./Endpoint.js"

/** Who a request comes from, at which endpoint: what a per-request MCP server is built for. */
export interface Connection {
  readonly caller: Caller
  readonly endpoint: Endpoint
  /** The origin addresses are based on (PUBLIC_URL, else the request's own). */
  readonly origin: string
  readonly settings: RuntimeSettings
}

/** The token of `Authorization: Bearer <token>`; undefined without the header, a refusal for another scheme. */
const bearerOf = (request: Request): Effect.Effect<string | undefined, Rejection> => {
  const header = request.headers.get("authorization")
  if (header === null) return Effect.succeed(undefined)
  const token = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1]
  return token === undefined
    ? Effect.fail(reject("unauthenticated", "Send the API key as Authorization: Bearer <key>."))
    : Effect.succeed(token)
}

/** Whether an Origin header names this computer: localhost, 127.0.0.0/8 or ::1. */
const isLocalOrigin = (origin: string): boolean => {
  try {
    const host = new URL(origin).hostname.replace(/^\[(.*)\]$/, "$1")
    return host === "localhost" || isLoopback(host)
  } catch {
    return false
  }
}

/**
 * Refuses a browser's request from another site to the local developer: local mode trusts this computer, so a page
 * elsewhere (or one that rebinds its name to 127.0.0.1) must not act through it.
 */
const checkOrigin = (request: Request, caller: Caller): Effect.Effect<void, Rejection> => {
  const origin = request.headers.get("origin")
  return caller.kind !== "local" || origin === null || isLocalOrigin(origin)
    ? Effect.void
    : Effect.fail(reject("origin_not_allowed", `Local mode takes no request a browser sends from ${origin}.`))
}

/** Refuses an endpoint whose org or playbook the caller may not reach: a scoped endpoint grants nothing extra. */
const checkScope = (endpoint: Endpoint, caller: Caller): Effect.Effect<void, Rejection> => {
  if (endpoint.org !== undefined && endpoint.org !== caller.org)
    return Effect.fail(forbidden(`This credential acts in the org ${caller.org}, not in ${endpoint.org}.`))
  if (endpoint.playbook !== undefined && !caller.mayAccess(endpoint.playbook))
    return Effect.fail(forbidden(`This credential may not act on the playbook ${endpoint.playbook}.`))
  return Effect.void
}

/**
 * Authenticates a request to an endpoint, from its API key or, in local mode, its loopback address and origin, and
 * checks the org and playbook its path names.
 */
export const connect = (
  request: Request,
  info: RequestInfo | undefined,
  endpoint: Endpoint
): Effect.Effect<Connection, Rejection, Authenticator | RuntimeConfig> =>
  Effect.gen(function* () {
    const settings = yield* RuntimeConfig
    const bearer = yield* bearerOf(request)
    const authenticator = yield* Authenticator
    const caller = yield* authenticator.authenticate({
      ...(bearer === undefined ? {} : { bearer }),
      loopback: isLoopback(info?.remoteAddress)
    })
    yield* checkOrigin(request, caller)
    yield* checkScope(endpoint, caller)
    return { caller, endpoint, origin: originOf(request, settings.publicUrl), settings }
  })
