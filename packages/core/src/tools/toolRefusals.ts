import { type Rejection, reject } from "../domain/Rejection.js"
import type { ToolServerFailed, ToolServerUnknown } from "../ports/ToolServers.js"

/** Why a tool is not offered: its server is not set up for the playbook, the operator does not allow it, or its server does not list it. */
export type NotOfferedBecause = "tool_server_not_configured" | "tool_not_allowed" | "tool_not_listed"

/** `unavailable` of the kind `tool_not_offered`, with its because; asking again will not help until the operator acts. */
export const toolNotOffered = (
  because: NotOfferedBecause,
  server: string,
  tool?: string,
  playbook?: string
): Rejection =>
  reject(
    "unavailable",
    because === "tool_server_not_configured"
      ? `The tool server ${server} is not set up for ${playbook === undefined ? "this org" : `the playbook ${playbook}`}; search lists the servers it may use.`
      : because === "tool_not_allowed"
        ? `The operator does not allow the tool ${server}/${tool}; search lists the tools it allows.`
        : `The tool server ${server} does not list the tool ${tool}; search lists the tools it offers.`,
    { kind: "tool_not_offered", because }
  )

/** How long to wait before asking a server again that may answer later, when it named no delay: 30 s. */
const defaultRetrySeconds = 30

/**
 * `unavailable` of the kind `tool_server_failed`: the server could not be used, with its because. Asking again
 * later may work for `failing`, `rate_limited` and `unreachable` (with `Retry-After`), not for `key_refused` or
 * `scope_lacking`. A server the runtime has no implementation for is unreachable.
 */
export const toolServerFailed = (failure: ToolServerFailed | ToolServerUnknown): Rejection => {
  if (failure._tag === "ToolServerUnknown")
    return reject(
      "unavailable",
      `The tool server ${failure.server} could not be used: this runtime was started without its tool servers.`,
      { kind: "tool_server_failed", because: "unreachable" }
    )
  const later = ["failing", "rate_limited", "unreachable"].includes(failure.because)
  return reject("unavailable", `The tool server ${failure.server} could not be used: ${failure.detail}`, {
    kind: "tool_server_failed",
    because: failure.because,
    ...(later
      ? {
          retryAfter: failure.retryAfterMs === undefined ? defaultRetrySeconds : Math.ceil(failure.retryAfterMs / 1000)
        }
      : {})
  })
}

/** `unavailable` of the kind `tool_not_read_only`: the tool is not marked reads, so `query_connection` does not call it. */
export const toolNotReadOnly = (server: string, tool: string, mark: string, callsIt: string): Rejection =>
  reject(
    "unavailable",
    `The tool ${server}/${tool} is marked ${mark}, not reads, so it may change something; ${callsIt}.`,
    { kind: "tool_not_read_only" }
  )
