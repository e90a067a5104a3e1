import type { ToolMark } from "../ports/ToolServers.js"

/** Where a tool server is and how it is reached: remote MCP, an MCP process the runtime starts, or an HTTP API. */
export type ToolServerTransport =
  /** A remote MCP server over streamable HTTP. */
  | { readonly type: "mcp"; readonly url: string }
  /** An MCP server the runtime starts as a process and speaks to over its standard input and output. */
  | {
      readonly type: "stdio"
      readonly command: string
      readonly args?: ReadonlyArray<string>
      /** Environment values of the process (each may hold `${VAR}` references). */
      readonly env?: Readonly<Record<string, string>>
      readonly cwd?: string
    }
  /**
   * An HTTP API described by an OpenAPI 3 document: `document` an address (http(s)) or a file path, or
   * `documentText` the document itself (JSON or YAML); `baseUrl` where its calls go (else the document's first
   * server).
   */
  | {
      readonly type: "openapi"
      readonly document?: string
      readonly documentText?: string
      readonly baseUrl?: string
    }

/**
 * One entry of the operator's `tool_servers`: a server, the orgs and playbooks it serves, the tools it allows,
 * whether the content of its calls is kept, and its headers and query parameters, whose `${VAR}` references are
 * read from the environment (and scrubbed from everything answered or recorded when 8 characters or longer).
 */
export type ToolServerEntry = ToolServerTransport & {
  /** The name a function writes before the slash (`billing/getInvoice`); unique in the configuration. */
  readonly name: string
  /** The orgs it serves; absent for every org. */
  readonly orgs?: ReadonlyArray<string>
  /** The playbooks it serves (ids); absent for every playbook of its orgs. */
  readonly playbooks?: ReadonlyArray<string>
  /** The tools it allows, by name; absent for every tool it lists. */
  readonly allowed?: ReadonlyArray<string>
  /** Whether the arguments and results of its calls are kept; true when absent. */
  readonly recordContent?: boolean
  readonly headers?: Readonly<Record<string, string>>
  readonly queryParams?: Readonly<Record<string, string>>
  /** Marks the operator gives tools by name, in place of the server's or the method's (`marked_by: settings`). */
  readonly marks?: Readonly<Record<string, Exclude<ToolMark, "unmarked">>>
  /** The response header in which the server carries its own id of a request. */
  readonly requestId?: string
  /** How long opening the server may take; 10 s when absent. */
  readonly connectTimeoutMs?: number
  /** How long listing its tools may take; 10 s when absent. */
  readonly listTimeoutMs?: number
  /** The provider an entry names, answered as `provider`; null when absent. */
  readonly provider?: string
}

/** The settings' default limits of a server: 10 s to open, 10 s to list, 30 s for a tool to answer. */
export const toolServerLimits = { connectMs: 10_000, listMs: 10_000, callMs: 30_000 } as const
