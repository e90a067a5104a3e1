import { Context, Data, Effect, Layer } from "effect"

/** A tool's mark: `reads` when it only reads, `acts` when it may change something, `unmarked` (counts as `acts`). */
export type ToolMark = "reads" | "acts" | "unmarked"

/** What gave a tool its mark: its server's hints, its HTTP method, its provider's entry, or the operator's settings. */
export type MarkedBy = "server" | "method" | "catalogue" | "settings"

/** The hints a server gives a tool (MCP `ToolAnnotations`), each only where given. */
export interface ToolHints {
  readonly readOnlyHint?: boolean
  readonly destructiveHint?: boolean
  readonly idempotentHint?: boolean
  readonly openWorldHint?: boolean
}

/**
 * One tool as its server lists it, with the mark the runtime gives it. Names, descriptions and schemas are
 * already scrubbed of the server's secrets. The operator's `allowed` list is not applied here: the core applies it.
 */
export interface ListedTool {
  readonly name: string
  /** What a person reads as its name, where the server gives one. */
  readonly title?: string
  /** Its whole description ("" where it gives none). */
  readonly description: string
  /** The JSON Schema of its arguments (an object schema; an HTTP API's schemas referred to sit under `$defs`). */
  readonly inputSchema: Record<string, unknown>
  /** The hints its server gives (or, for an HTTP API, its method gives); absent when there are none. */
  readonly annotations?: ToolHints
  readonly mark: ToolMark
  readonly markedBy: MarkedBy
}

/** Why a server could not be used (the seed's `tool_server_failed` becauses). */
export type ServerFailure = "unreachable" | "failing" | "rate_limited" | "key_refused" | "scope_lacking"

/**
 * A server could not be opened, listed or sent a call: nothing reached the tool. `detail` is scrubbed of the
 * server's secrets; `retryAfterMs` is kept when the server asked for a delay.
 */
export class ToolServerFailed extends Data.TaggedError("ToolServerFailed")<{
  readonly server: string
  readonly because: ServerFailure
  readonly detail: string
  readonly retryAfterMs?: number
}> {}

/** No server of that name is configured in this runtime (the core checks the playbook's servers first). */
export class ToolServerUnknown extends Data.TaggedError("ToolServerUnknown")<{ readonly server: string }> {}

/** Why a call that was sent never got the tool's answer (a run's `tool_call_failed` becauses the port can see). */
export type CallFailure = "arguments_refused" | "server_failure" | "timed_out" | "too_large"

/** A call was sent and ended without the tool's answer. `detail` is scrubbed; ids are kept when known. */
export class ToolCallFailed extends Data.TaggedError("ToolCallFailed")<{
  readonly because: CallFailure
  readonly detail: string
  readonly durationMs: number
  readonly jsonrpcId: string | number | null
  readonly serverRequestId?: string
  readonly retryAfterMs?: number
}> {}

/** One call of one tool: the arguments object, the run it belongs to (sent as `_meta`, F11), its time limit. */
export interface ToolCall {
  readonly server: string
  readonly tool: string
  readonly arguments: Record<string, unknown>
  /** Sent as `_meta: { "io.runledger/run_id": runId }`; absent for a call made by hand. */
  readonly runId?: string
  /** How long the tool has to answer; 30 s when absent. */
  readonly timeoutMs?: number
}

/**
 * The tool's answer, as the MCP `CallToolResult` gives it (an HTTP API's response in the same shape), scrubbed
 * of the server's secrets: `content` blocks, `structuredContent` where given, `isError` for the tool's own error.
 */
export interface ToolAnswer {
  readonly content: ReadonlyArray<Record<string, unknown>>
  readonly structuredContent?: Record<string, unknown>
  readonly isError: boolean
  readonly durationMs: number
  readonly jsonrpcId: string | number | null
  /** The server's own id of the request, where the operator's `request_id` setting says where it carries one. */
  readonly serverRequestId?: string
}

/**
 * The tool servers the operator set up (MCP over streamable HTTP, MCP over stdio, HTTP APIs described by an
 * OpenAPI document), addressed by the names of the configuration's entries. It opens and lists a server within the
 * entry's connect and list time limits, and gives each tool its mark. Which servers serve which playbook, and which
 * tools the operator allows, are the core's to judge from the same configuration.
 */
export class ToolServers extends Context.Tag("@runledger/core/ToolServers")<
  ToolServers,
  {
    /**
     * The tools a server lists now (an HTTP API's come from its document, without asking the API). A listing may
     * be one kept from before while its server promises to announce changes to its tools; `refresh` asks anew.
     */
    readonly list: (
      server: string,
      options?: { readonly refresh?: boolean }
    ) => Effect.Effect<ReadonlyArray<ListedTool>, ToolServerFailed | ToolServerUnknown>
    /** Calls one tool; fails with `ToolServerFailed` when nothing was sent, `ToolCallFailed` when sent but unanswered. */
    readonly call: (call: ToolCall) => Effect.Effect<ToolAnswer, ToolServerFailed | ToolCallFailed | ToolServerUnknown>
    /** Replaces the values of every server's secrets (`${VAR}` references of 8 characters or more) in a text. */
    readonly scrub: (text: string) => string
  }
>() {
  /** A runtime given no tool servers: every server is unknown (`@runledger/tool-servers` provides the real ones). */
  static readonly none = Layer.succeed(ToolServers, {
    list: (server) => Effect.fail(new ToolServerUnknown({ server })),
    call: (call) => Effect.fail(new ToolServerUnknown({ server: call.server })),
    scrub: (text) => text
  })
}
