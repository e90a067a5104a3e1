import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { RuntimeConfig } from "../../config/RuntimeConfig.js"
import { readPartition } from "../../ledger/readPartition.js"
import { studioLink } from "../../studio/studioLink.js"
import { PlaybookRecord, withoutPage } from "../PlaybookRecord.js"
import { playbooksView } from "../playbooksProjection.js"
import { welcomeWords } from "../welcome.js"

/** list_playbooks's input; over HTTP `include_retired` comes in the query string. */
export const ListPlaybooksInput = Schema.Struct({
  include_retired: Schema.optional(
    Schema.Boolean.annotations({ description: "Whether to list retired playbooks too; false when left out." })
  )
})

/** list_playbooks's output: the playbooks, and on an empty org the welcome for a caller who may start one. */
export const PlaybookList = Schema.Struct({
  playbooks: Schema.Array(PlaybookRecord),
  welcome: Schema.optional(Schema.String)
}).annotations({ identifier: "PlaybookList" })

/** list_playbooks: the playbooks the caller may access, retired ones only when asked for. */
export const listPlaybooks = declare({
  name: "list_playbooks",
  title: "List playbooks",
  description:
    "List the playbooks the caller may access, each with every field but its page. Retired playbooks are left out unless include_retired is true. On an organization with no playbook yet, a caller who may make the first one is also given a welcome to relay to the person.",
  tag: "playbooks",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/playbooks" },
  input: ListPlaybooksInput,
  output: PlaybookList,
  permission: ["org:read", "playbook:read"],
  served: { http: true, mcp: ["root", "org", "directory"] },
  summarize: ({ playbooks }) =>
    playbooks.length === 0
      ? "No playbook is listed."
      : `Found ${playbooks.length} playbook${playbooks.length === 1 ? "" : "s"}: ${playbooks.map((playbook) => playbook.id).join(", ")}.`,
  relay: (list) => list.welcome,
  handle: (input, { caller, org, origin }) =>
    Effect.gen(function* () {
      const all = (yield* readPartition(playbooksView, org)).map((doc) => doc.data as PlaybookRecord)
      const playbooks = all
        .filter((playbook) => caller.mayAccess(playbook.id))
        .filter((playbook) => input.include_retired === true || playbook.status === "active")
        .map(withoutPage)
      if (all.length === 0 && caller.actsOnEveryPlaybook && caller.holds("org:write")) {
        const settings = yield* RuntimeConfig
        return { playbooks, welcome: welcomeWords(studioLink(settings, origin, [])) }
      }
      return { playbooks }
    })
})
