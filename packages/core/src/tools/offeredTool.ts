import { Effect } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import type { Rejection } from "../domain/Rejection.js"
import { type ListedTool, type ToolServerFailed, ToolServers, type ToolServerUnknown } from "../ports/ToolServers.js"
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

/**
 * A tool as its server lists it, asking the server anew when a listing kept from before lacks it (ADR 0306);
 * undefined when the server does not list it.
 */
export const findListed = (
  port: ToolServers["Type"],
  server: string,
  tool: string
): Effect.Effect<ListedTool | undefined, ToolServerFailed | ToolServerUnknown> =>
  Effect.gen(function* () {
    const named = (listed: ReadonlyArray<ListedTool>) => listed.find((candidate) => candidate.name === tool)
    return named(yield* port.list(server)) ?? named(yield* port.list(server, { refresh: true }))
  })

/** A tool as its server lists it (see `findListed`), or `tool_server_failed`. */
export const listedTool = (
  server: string,
  tool: string
): Effect.Effect<ListedTool | undefined, Rejection, ToolServers> =>
  Effect.flatMap(ToolServers, (port) => Effect.mapError(findListed(port, server, tool), toolServerFailed))

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
    const listed = yield* listedTool(server, tool)
    if (listed === undefined) return yield* Effect.fail(toolNotOffered("tool_not_listed", server, tool))
    return { entry, tool: listed }
  })
