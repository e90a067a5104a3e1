import { Effect, Option } from "effect"
import type { RuntimeSettings } from "../../config/RuntimeConfig.js"
import type { Rejection } from "../../domain/Rejection.js"
import { type ToolServers, ToolServerUnknown } from "../../ports/ToolServers.js"
import { findListed } from "../../tools/offeredTool.js"
import { allowsTool, servingServers } from "../../tools/servingServers.js"
import { toolServerFailed } from "../../tools/toolRefusals.js"
import type { SaveWhere, SourceIssue } from "../DefinitionFormat.js"
import type { LookupCall } from "./readLookup.js"

/**
 * The save's live check of a `call`'s tool (function-formats.md §5.2.2): the server must serve the playbook, the
 * operator allow the tool, and the server list it, marked `reads` for a lookup, or not marked `reads` for an
 * interaction's call, which acts (decision F6); each failure an issue at the line of `call`. A server that cannot
 * be asked fails the save as `unavailable`, naming it; nothing is saved.
 */
export const checkLookupTool = (
  call: Pick<LookupCall, "server" | "tool" | "at">,
  where: SaveWhere,
  settings: RuntimeSettings,
  port: Option.Option<ToolServers["Type"]>,
  wants: "reads" | "acts"
): Effect.Effect<ReadonlyArray<SourceIssue>, Rejection> =>
  Effect.gen(function* () {
    const issue = (message: string): ReadonlyArray<SourceIssue> => [
      { line: call.at.line, column: call.at.column, pointer: "/call", message }
    ]
    const entry = servingServers(settings, where.org, where.playbook).find(
      (candidate) => candidate.name === call.server
    )
    if (entry === undefined)
      return issue(
        `the tool server ${call.server} is not set up for this playbook; search lists the servers it may use`
      )
    if (!allowsTool(entry, call.tool))
      return issue(`the operator does not allow the tool ${call.server}/${call.tool}; search lists the tools it allows`)
    if (Option.isNone(port)) return yield* Effect.fail(toolServerFailed(new ToolServerUnknown({ server: call.server })))
    const tool = yield* Effect.mapError(findListed(port.value, call.server, call.tool), toolServerFailed)
    if (tool === undefined)
      return issue(
        `the tool server ${call.server} does not list the tool ${call.tool}; search lists the tools it offers`
      )
    if (wants === "acts" && tool.mark === "reads")
      return issue(
        `the tool ${call.server}/${call.tool} is marked reads (by its ${tool.markedBy}), so it changes nothing; an interaction's call is for a tool that acts: read through a tool with a lookup function`
      )
    if (wants === "reads" && tool.mark !== "reads")
      return issue(
        `the tool ${call.server}/${call.tool} is marked ${tool.mark} (by its ${tool.markedBy}), not reads, so it may change something; a lookup calls only a tool that reads: call a tool that acts from an interaction function with call`
      )
    return []
  })
