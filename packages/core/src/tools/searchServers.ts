import { Effect, Either } from "effect"
import { cutText } from "../formats/cutText.js"
import { type ListedTool, type ToolServerFailed, ToolServers, type ToolServerUnknown } from "../ports/ToolServers.js"
import { scoreTool, summaryOf } from "./scoreTool.js"
import { allowsTool, keepsContent } from "./servingServers.js"
import type { ToolSearch } from "./ToolSearch.js"
import type { ToolServerEntry } from "./ToolServerEntry.js"
import { toolServerFailed } from "./toolRefusals.js"

/** The most tools a search lists. */
const shownTools = 100

/** What a search asks of the servers it covers: its words, and whether it keeps only reads or only the others. */
export interface SearchAsk {
  readonly terms?: string
  readonly only?: "read" | "write"
  /** Each server's `playbooks`, on the org route. */
  readonly playbooksOf?: (entry: ToolServerEntry) => ReadonlyArray<string>
  /** How a server's tools are read: asked now (the playbook's route), or kept a while for the org (`orgListing`). */
  readonly listing?: (
    server: string
  ) => Effect.Effect<ReadonlyArray<ListedTool>, ToolServerFailed | ToolServerUnknown, ToolServers>
}

/**
 * Searches servers for their tools (HTTP "Searching the tools"): each asked at once, those that could not be
 * asked listed unavailable with their because, the tools the operator allows and `only` keeps counted; without
 * terms, every tool while there are at most 100; with terms, those that score, best first, at most 100.
 */
export const searchServers = (
  entries: ReadonlyArray<ToolServerEntry>,
  ask: SearchAsk
): Effect.Effect<ToolSearch, never, ToolServers> =>
  Effect.gen(function* () {
    const tools = yield* ToolServers
    const listing = ask.listing ?? ((server: string) => tools.list(server))
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const listings = yield* Effect.forEach(sorted, (entry) => Effect.either(listing(entry.name)), {
      concurrency: "unbounded"
    })
    const kept = (entry: ToolServerEntry, tool: ListedTool) =>
      allowsTool(entry, tool.name) && (ask.only === undefined || (ask.only === "read") === (tool.mark === "reads"))
    const found: Array<{ entry: ToolServerEntry; tool: ListedTool; order: number }> = []
    const servers = sorted.map((entry, index) => {
      const listing = listings[index]
      const base = {
        name: entry.name,
        provider: entry.provider ?? null,
        type: entry.type,
        record_content: keepsContent(entry),
        ...(ask.playbooksOf === undefined ? {} : { playbooks: [...ask.playbooksOf(entry)] })
      }
      if (Either.isLeft(listing)) {
        const refusal = toolServerFailed(listing.left)
        return { ...base, unavailable: cutText(refusal.detail), because: refusal.because as "failing" }
      }
      const allowed = listing.right.filter((tool) => kept(entry, tool))
      for (const tool of allowed) found.push({ entry, tool, order: found.length })
      return { ...base, tool_count: allowed.length }
    })
    const words = (ask.terms ?? "").split(" ").filter((word) => word.length > 0)
    const chosen =
      words.length === 0
        ? found.length <= shownTools
          ? found
          : []
        : found
            .map((item) => ({ ...item, score: scoreTool(item.tool, words) }))
            .filter((item) => item.score > 0)
            .sort(
              (a, b) =>
                b.score - a.score ||
                compare(a.tool.name, b.tool.name) ||
                compare(a.entry.name, b.entry.name) ||
                a.order - b.order
            )
            .slice(0, shownTools)
    return {
      servers,
      tools: chosen.map(({ entry, tool }) => ({
        server: entry.name,
        tool: tool.name,
        summary: summaryOf(tool.description),
        mark: tool.mark
      })),
      scopes: servers.map((server) => server.name)
    }
  })

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
