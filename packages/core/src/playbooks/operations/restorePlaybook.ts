import { Effect } from "effect"
import { declare } from "../../catalog/Operation.js"
import { changePlaybook } from "../changePlaybook.js"
import { PlaybookRecord } from "../PlaybookRecord.js"
import { PlaybookPath } from "../playbookFields.js"

/** restore_playbook: a retired playbook comes back active, with its definitions, page and history. */
export const restorePlaybook = declare({
  name: "restore_playbook",
  title: "Restore a playbook",
  description:
    "Bring a retired playbook back, active again, with its definitions, page and history as they were. Restoring a playbook that is not retired changes nothing.",
  tag: "playbooks",
  kind: "command",
  scope: "org",
  route: { method: "POST", path: "/playbooks/{playbook}/restore" },
  input: PlaybookPath,
  output: PlaybookRecord,
  permission: "org:write",
  served: { http: true, mcp: ["root", "org", "directory"] },
  refusals: ["not_found"],
  summarize: (playbook) => `The playbook “${playbook.name}” (${playbook.id}) is active.`,
  handle: (input, { caller, org }) =>
    changePlaybook(org, input.playbook, caller, (playbook) =>
      Effect.succeed(playbook.status === "retired" ? [{ type: "playbook_restored", data: {} }] : [])
    )
})
