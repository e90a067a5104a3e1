import { Effect, Either, Option } from "effect"
import { type Rejection, reject } from "../../domain/Rejection.js"
import type { ListedTool, ToolServers } from "../../ports/ToolServers.js"
import type { ToolServerEntry } from "../../tools/ToolServerEntry.js"
import { toolServerFailed } from "../../tools/toolRefusals.js"
import { cutText } from "../cutText.js"
import type { FormatRun } from "../DefinitionFormat.js"
import { modelToolNames } from "./modelToolNames.js"
import type { OpenTools } from "./runReasoning.js"
import { noTools } from "./Toolbox.js"
import { type OfferedTool, toolLoop } from "./toolLoop.js"
import type { ToolReference } from "./toolReferences.js"

/** The tool servers a reasoning run may reach: the port, and the operator's entries. */
export interface ReasoningTools {
  readonly port: Option.Option<ToolServers["Type"]>
  readonly entries: ReadonlyArray<ToolServerEntry>
}

/** The longest description a model is given of a tool. */
const descriptionBound = 4_096

const notOffered = (reference: ToolReference, because: string, why: string): Rejection =>
  reject(
    "unavailable",
    `The tool ${reference.server}/${reference.tool} is not offered to this playbook: ${why}; search shows the tools a function may name.`,
    { kind: "tool_not_offered", because }
  )

/** Whether an entry serves a playbook: its orgs and playbooks, each absent for all. */
const serves = (entry: ToolServerEntry, org: string, playbook: string): boolean =>
  (entry.orgs === undefined || entry.orgs.includes(org)) &&
  (entry.playbooks === undefined || entry.playbooks.includes(playbook))

/** The tools of one named server the reference takes: `server/*` every allowed listed tool, else the one named. */
const pick = (
  reference: ToolReference,
  entry: ToolServerEntry,
  listed: ReadonlyArray<ListedTool>
): Either.Either<ReadonlyArray<ListedTool>, Rejection> => {
  const allowed = (name: string) => entry.allowed === undefined || entry.allowed.includes(name)
  if (reference.tool === "*") return Either.right(listed.filter((tool) => allowed(tool.name)))
  if (!allowed(reference.tool))
    return Either.left(notOffered(reference, "tool_not_allowed", "its server does not allow it"))
  const tool = listed.find((candidate) => candidate.name === reference.tool)
  return tool === undefined
    ? Either.left(notOffered(reference, "tool_not_listed", "its server does not list it"))
    : Either.right([tool])
}

/**
 * Opens the tools a reasoning run names before its model is first called (function-formats.md §2.6): a server that
 * does not serve the playbook is `tool_not_offered` because `tool_server_not_configured`; a tool outside its
 * server's `allowed`, `tool_not_allowed`; one the server does not list, `tool_not_listed`; a server that cannot be
 * used, `tool_server_failed` with its because. `server/*` takes every listed tool `allowed` admits.
 */
export const openToolbox =
  (tools: ReasoningTools): OpenTools =>
  (run: FormatRun, references) =>
    Effect.gen(function* () {
      if (references.length === 0) return noTools
      const org = run.playbook?.org ?? ""
      const playbook = run.playbook?.id ?? ""
      const offered: Array<{ readonly entry: ToolServerEntry; readonly tool: ListedTool }> = []
      const lists = new Map<string, ReadonlyArray<ListedTool>>()
      for (const reference of references) {
        const entry = tools.entries.find((candidate) => candidate.name === reference.server)
        if (Option.isNone(tools.port) || entry === undefined || !serves(entry, org, playbook))
          return yield* Effect.fail(
            notOffered(reference, "tool_server_not_configured", `no tool server ${reference.server} serves it`)
          )
        const port = tools.port.value
        const listing = (refresh: boolean) =>
          port.list(entry.name, { refresh }).pipe(
            Effect.catchTags({
              // The refusal of a call by hand: Retry-After only where asking again may work (ADR 0342).
              ToolServerFailed: (failure) => Effect.fail(toolServerFailed(failure)),
              ToolServerUnknown: () =>
                Effect.fail(
                  notOffered(reference, "tool_server_not_configured", `no tool server ${reference.server} serves it`)
                )
            })
          )
        const kept = lists.get(entry.name) ?? (yield* listing(false))
        // A listing kept from before that lacks the tool named is asked anew (ADR 0306).
        const listed =
          reference.tool === "*" || kept.some((tool) => tool.name === reference.tool) ? kept : yield* listing(true)
        lists.set(entry.name, listed)
        const picked = yield* pick(reference, entry, listed)
        for (const tool of picked)
          if (!offered.some((known) => known.entry.name === entry.name && known.tool.name === tool.name))
            offered.push({ entry, tool })
      }
      const names = modelToolNames(offered.map(({ entry, tool }) => ({ server: entry.name, tool: tool.name })))
      const toolbox: ReadonlyArray<OfferedTool> = offered.map(({ entry, tool }, index) => ({
        entry,
        tool,
        definition: {
          name: names[index]!,
          description: cutText(tool.description, descriptionBound),
          inputSchema: tool.inputSchema
        }
      }))
      return toolLoop(run, Option.getOrThrow(tools.port), toolbox)
    })
