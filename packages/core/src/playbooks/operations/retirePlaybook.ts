import { Effect } from "effect"
import { declare } from "../../catalog/Operation.js"
import { changePlaybook } from "../changePlaybook.js"
import { PlaybookRecord } from "../PlaybookRecord.js"
import { PlaybookPath } from "../playbookFields.js"

/** retire_playbook: the playbook keeps its id and stays readable; commands inside it are refused. */
export const retirePlaybook = declare({
  name: "retire_playbook",
  title: "Retire a playbook",
  description:
    "Retire a playbook, which keeps its id and stays readable with its definitions, runs and history; commands inside it are refused until it is restored. Retiring a retired playbook changes nothing.",
  tag: "playbooks",
  kind: "command",
  scope: "org",
  route: { method: "POST", path: "/playbooks/{playbook}/retire" },
  input: PlaybookPath,
  output: PlaybookRecord,
  permission: "org:write",
  hints: { idempotent: true },
  served: { http: true, mcp: ["root", "org", "directory"] },
  refusals: ["not_found"],
  summarize: (playbook) => `The playbook “${playbook.name}” (${playbook.id}) is retired; it stays readable.`,
  handle: (input, { caller, org }) =>
    changePlaybook(org, input.playbook, caller, (playbook) =>
      Effect.succeed(playbook.status === "retired" ? [] : [{ type: "playbook_retired", data: {} }])
    )
})
