import { Clock, Effect } from "effect"
import { type ListedTool, type ToolServerFailed, ToolServers, type ToolServerUnknown } from "../ports/ToolServers.js"

/** How long the org route of search answers a server's tools from what it listed for the org: 5 minutes. */
const orgListingMs = 5 * 60_000

/** A server's listing for one org, and when it was read (epoch milliseconds). */
interface OrgListing {
  readonly at: number
  readonly tools: ReadonlyArray<ListedTool>
}

/**
 * What each runtime's tool servers listed for each org on the org route of search, by the runtime's port (so two
 * runtimes in one process keep theirs apart) and by org and server (ADR 0328).
 */
const listings = new WeakMap<ToolServers["Type"], Map<string, OrgListing>>()

/**
 * A server's tools for the org route of search (HTTP "Searching the tools"): the ones it listed for this org within
 * the last five minutes, else asked now and kept for the org; nothing is kept of a server that could not be listed.
 */
export const orgListing = (
  org: string,
  server: string
): Effect.Effect<ReadonlyArray<ListedTool>, ToolServerFailed | ToolServerUnknown, ToolServers> =>
  Effect.gen(function* () {
    const port = yield* ToolServers
    const now = yield* Clock.currentTimeMillis
    const kept = listings.get(port) ?? new Map<string, OrgListing>()
    listings.set(port, kept)
    const key = JSON.stringify([org, server])
    const held = kept.get(key)
    if (held !== undefined && now - held.at < orgListingMs) return held.tools
    kept.delete(key)
    const tools = yield* port.list(server)
    kept.set(key, { at: now, tools })
    return tools
  })
