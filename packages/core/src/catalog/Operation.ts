import type { Effect, Schema } from "effect"
import type { Caller } from "../domain/Caller.js"
import type { Permission } from "../domain/Permission.js"
import type { Rejection } from "../domain/Rejection.js"
import type { PlaybookRecord } from "../playbooks/PlaybookRecord.js"
import type { OperationServices } from "./OperationServices.js"

/** Where an operation acts: the org (`/v1/orgs/{org}`) or one playbook (`/v1/orgs/{org}/playbooks/{playbook}`). */
export type OperationScope = "org" | "playbook"

/** The MCP endpoints an operation's tool is listed on (MCP seed "Endpoints"). */
export type McpEndpoint = "root" | "org" | "playbook" | "directory"

/** The HTTP methods the catalog routes. */
export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE"

/** What a handler knows of the call beside its input. */
export interface OperationContext {
  readonly caller: Caller
  readonly org: string
  /** The playbook a playbook-scoped operation acts in, as it stands. */
  readonly playbook: PlaybookRecord | undefined
  /** The origin the request arrived at, e.g. `http://127.0.0.1:4100`. */
  readonly origin: string
}

/** Hints for MCP annotations; readOnly/destructive/idempotent follow from `kind` unless given. */
export interface OperationHints {
  readonly readOnly?: boolean
  readonly idempotent?: boolean
  /** It reaches outside the runtime (model providers, tool servers): MCP `openWorldHint`. */
  readonly reachesOutside?: boolean
}

/** The declaration of one API operation: the one place its name, schemas, route, permission and handler live. */
export interface Operation<I = any, O = any> {
  readonly name: string
  readonly title: string
  /** The MCP tool's description, and the OpenAPI description. */
  readonly description: string
  /** The resource it acts on: the OpenAPI tag. */
  readonly tag: string
  readonly kind: "command" | "query"
  readonly scope: OperationScope
  readonly route: { readonly method: HttpMethod; readonly path: string }
  readonly input: Schema.Schema<I, any>
  readonly output: Schema.Schema<O, any>
  readonly success: 200 | 201
  /** The permission it needs; a list means any one of them. `"none"` for what needs no key. */
  readonly permission: Permission | ReadonlyArray<Permission> | "none"
  readonly hints: OperationHints
  readonly served: { readonly http: boolean; readonly mcp: ReadonlyArray<McpEndpoint> }
  /** The reasons (beyond the pipeline's own) it may refuse with, listed in OpenAPI under their statuses. */
  readonly refusals: ReadonlyArray<string>
  /** A plain-language sentence of what was done, at most 400 characters (MCP "Successful results"). */
  readonly summarize: (output: O, input: I) => string
  /** Words the agent relays whole, when the output holds some (the welcome of list_playbooks). */
  readonly relay?: (output: O) => string | undefined
  readonly handle: (input: I, context: OperationContext) => Effect.Effect<O, Rejection, OperationServices>
}

/** Declares an operation; fills in what most operations share. */
export const declare = <I, O>(
  operation: Omit<Operation<I, O>, "hints" | "refusals" | "success"> &
    Partial<Pick<Operation<I, O>, "hints" | "refusals" | "success">>
): Operation<I, O> => ({ hints: {}, refusals: [], success: 200, ...operation })

/** The MCP annotations an operation's declaration gives its tool. */
export const annotationsOf = (operation: Operation) => {
  const readOnly = operation.hints.readOnly ?? operation.kind === "query"
  return {
    title: operation.title,
    readOnlyHint: readOnly,
    destructiveHint: !readOnly,
    idempotentHint: operation.hints.idempotent ?? readOnly,
    openWorldHint: operation.hints.reachesOutside ?? false
  }
}

/** The permissions that let a caller call an operation (any one suffices); empty for none needed. */
export const permissionsOf = (operation: Operation): ReadonlyArray<Permission> =>
  operation.permission === "none"
    ? []
    : typeof operation.permission === "string"
      ? [operation.permission]
      : operation.permission
