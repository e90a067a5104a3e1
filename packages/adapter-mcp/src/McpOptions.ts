import type { Operation } from "@runledger/core"

/** How the MCP adapter is set up; every field has a default. */
export interface McpOptions {
  /** The operations served as tools; the core's catalog by default. */
  readonly catalog?: ReadonlyArray<Operation>
  /** Milliseconds between the SSE comment heartbeats of an answer that is still running; 5,000 by default. */
  readonly heartbeatMs?: number
  /**
   * Aborted when the runtime stops: a call in hand is answered with the JSON-RPC error that says it may or may not
   * have taken effect, and a request that arrives afterwards gets `503`.
   */
  readonly shutdown?: AbortSignal
}

/** The heartbeat interval the MCP seed names. */
export const defaultHeartbeatMs = 5_000
