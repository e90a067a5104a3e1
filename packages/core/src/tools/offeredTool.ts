import { Effect } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import type { Rejection } from "../domain/Rejection.js"
import { type ListedTool, ToolServers } from "../ports/ToolServers.js"
import { allowsTool, servingServers } from "./servingServers.js"
import type { ToolServerEntry } from "./ToolServerEntry.js"
import { toolNotOffered, toolServerFailed } from "./toolRefusals.js"

/** A tool a playbook may use: its server's entry and the tool as its server lists it now. */
export interface OfferedTool {
  readonly entry: ToolServerEntry
  readonly tool: ListedTool
}

/** The entry of a server that serves a playbook, or `tool_not_offered` because `tool_server_not_configured`. */
export const entryFor = (
  org: string,
  playbook: string,
  server: string
): Effect.Effect<ToolServerEntry, Rejection, RuntimeConfig> =>
  Effect.flatMap(RuntimeConfig, (settings) => {
    const entry = servingServers(settings, org, playbook).find((candidate) => candidate.name === server)
    return entry === undefined
      ? Effect.fail(toolNotOffered("tool_server_not_configured", server, undefined, playbook))
      : Effect.succeed(entry)
  })

/** The tools a server lists now, or `tool_server_failed`. */
export const listedTools = (server: string): Effect.Effect<ReadonlyArray<ListedTool>, Rejection, ToolServers> =>
  Effect.flatMap(ToolServers, (tools) => Effect.mapError(tools.list(server), toolServerFailed))

/**
 * A tool a playbook may use, read from its server now: refused as `tool_not_offered` (not configured, not allowed,
 * before any server is asked; or not listed) or `tool_server_failed` (the server could not be asked).
 */
export const offeredTool = (
  org: string,
  playbook: string,
  server: string,
  tool: string
): Effect.Effect<OfferedTool, Rejection, RuntimeConfig | ToolServers> =>
  Effect.gen(function* () {
    const entry = yield* entryFor(org, playbook, server)
    if (!allowsTool(entry, tool)) return yield* Effect.fail(toolNotOffered("tool_not_allowed", server, tool))
    const listed = (yield* listedTools(server)).find((candidate) => candidate.name === tool)
    if (listed === undefined) return yield* Effect.fail(toolNotOffered("tool_not_listed", server, tool))
    return { entry, tool: listed }
  })
