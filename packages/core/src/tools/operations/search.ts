import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { RuntimeConfig } from "../../config/RuntimeConfig.js"
import { PlaybookId } from "../../domain/Ids.js"
import { forbidden, invalidAt } from "../../domain/Rejection.js"
import { readPlaybook } from "../../playbooks/readPlaybook.js"
import { orgListing } from "../orgListings.js"
import { searchServers } from "../searchServers.js"
import { servingServers } from "../servingServers.js"
import { SearchTerms, ServerName, ToolSearch } from "../ToolSearch.js"
import type { ToolServerEntry } from "../ToolServerEntry.js"

/** What both routes of search take beside the playbook. */
const searchFields = {
  terms: Schema.optional(SearchTerms),
  server: Schema.optional(ServerName),
  only: Schema.optional(
    Schema.Literal("read", "write").annotations({
      description: "read keeps the tools marked reads; write the others, which may change something."
    })
  )
}

const description = `Find the tools of the tool servers a playbook's functions may use: the servers the operator set up for it, each with the number of tools it allows and its mark. Without terms it lists every tool while there are at most 100; with terms (up to 8 words) the tools whose name, arguments or description hold them, best first. A reasoning function names a tool as server/tool (or server/* for all of a server's); a lookup function names one tool marked reads in call. only: read keeps the tools that only read. Read one tool in full with introspect, check arguments with dry_run, and call a tool by hand with query_connection (tools marked reads) or execute_connection.`

/** The servers a search covers, narrowed to `server`, or `invalid_input` at /server for a name none of them has. */
const narrowed = (entries: ReadonlyArray<ToolServerEntry>, server: string | undefined, of: string) =>
  server === undefined
    ? Effect.succeed(entries)
    : entries.some((entry) => entry.name === server)
      ? Effect.succeed(entries.filter((entry) => entry.name === server))
      : Effect.fail(
          invalidAt("/server", `server: ${of} has no tool server named ${server}; search without server lists them.`)
        )

const summarize = (output: ToolSearch) =>
  `Searched ${output.servers.length} tool server${output.servers.length === 1 ? "" : "s"} and found ${output.tools.length} tool${output.tools.length === 1 ? "" : "s"}.`

/** search on a playbook's route: the servers that serve the playbook, each asked for its tools now. */
export const search = declare({
  name: "search",
  title: "Search the tools",
  description,
  tag: "tool-servers",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/tool-servers/search" },
  input: Schema.Struct(searchFields),
  output: ToolSearch,
  permission: "playbook:read",
  hints: { reachesOutside: true },
  served: { http: true, mcp: ["playbook"] },
  refusals: ["invalid_input"],
  summarize,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      const settings = yield* RuntimeConfig
      const entries = yield* narrowed(
        servingServers(settings, org, playbook!.id),
        input.server,
        `the playbook ${playbook!.id}`
      )
      return yield* searchServers(entries, { ...input })
    })
})

/**
 * search on the org's route: every server set up for the org, or those that serve the playbook given, each with
 * the playbooks it serves that the caller may access (`["*"]` for every playbook); a server's tools are those it
 * listed for the org within the last five minutes (ADR 0328).
 */
export const searchInOrg = declare({
  name: "search_in_org",
  title: "Search the org's tools",
  description,
  tag: "tool-servers",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/tool-servers/search" },
  input: Schema.Struct({
    playbook: Schema.optional(
      PlaybookId.annotations({ description: "Only the servers that serve this playbook, as list_playbooks lists it." })
    ),
    ...searchFields
  }),
  output: ToolSearch,
  permission: ["org:read", "playbook:read"],
  hints: { reachesOutside: true },
  served: { http: true, mcp: [] },
  refusals: ["invalid_input", "not_found", "forbidden"],
  summarize,
  handle: ({ playbook, ...input }, { org, caller }) =>
    Effect.gen(function* () {
      if (playbook === undefined && caller.playbooks !== null)
        return yield* Effect.fail(
          forbidden(
            `This credential may act on some playbooks only; name one of them in playbook: ${caller.playbooks.join(", ")}.`
          )
        )
      if (playbook !== undefined) yield* readPlaybook(org, playbook, caller)
      const settings = yield* RuntimeConfig
      const entries = yield* narrowed(
        servingServers(settings, org, playbook),
        input.server,
        playbook === undefined ? `the org ${org}` : `the playbook ${playbook}`
      )
      return yield* searchServers(entries, {
        ...input,
        playbooksOf: (entry) =>
          entry.playbooks === undefined ? ["*"] : entry.playbooks.filter((id) => caller.mayAccess(id)),
        listing: (server) => orgListing(org, server)
      })
    })
})

/** The MCP tool of `/mcp`, the org endpoint and the directory: the org's search, its playbook optional. */
export const searchTool = declare({
  ...searchInOrg,
  name: "search",
  served: { http: false, mcp: ["root", "org", "directory"] }
})
