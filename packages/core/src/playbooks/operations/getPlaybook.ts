import { declare } from "../../catalog/Operation.js"
import { PlaybookRecord } from "../PlaybookRecord.js"
import { PlaybookPath } from "../playbookFields.js"
import { readPlaybook } from "../readPlaybook.js"

/** get_playbook: one playbook, retired or not, with its page's source. */
export const getPlaybook = declare({
  name: "get_playbook",
  title: "Read a playbook",
  description: "Read a playbook, retired or not, with every field and the source of its page when it has one.",
  tag: "playbooks",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/playbooks/{playbook}" },
  input: PlaybookPath,
  output: PlaybookRecord,
  permission: "org:read",
  served: { http: true, mcp: ["root", "org", "directory"] },
  refusals: ["not_found"],
  summarize: (playbook) =>
    `The playbook “${playbook.name}” (${playbook.id}) is ${playbook.status}${playbook.page ? " and has a page" : ""}.`,
  handle: (input, { caller, org }) => readPlaybook(org, input.playbook, caller)
})
