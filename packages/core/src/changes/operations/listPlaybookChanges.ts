import { declare } from "../../catalog/Operation.js"
import { answerChanges } from "../answerChanges.js"
import { PlaybookChanges } from "../Change.js"
import { ChangesInput } from "../ChangesInput.js"
import { changesSummary } from "../changesSummary.js"
import { playbookChangeFeed } from "../playbookChangeFeed.js"

/** list_playbook_changes: what changed in one playbook since a cursor, held until it does. */
export const listPlaybookChanges = declare({
  name: "list_playbook_changes",
  title: "List the playbook's changes",
  description:
    "Learn what changed in the playbook after the cursor of an earlier answer: its page, definitions, runs, interactions, events and comments. Without since, the answer comes at once with the cursor of now. With it, the request is held until something changes or wait seconds pass.",
  tag: "changes",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/changes" },
  input: ChangesInput,
  output: PlaybookChanges,
  permission: "playbook:read",
  served: { http: true, mcp: [] },
  summarize: changesSummary,
  handle: (input, { org, playbook }) => answerChanges(playbookChangeFeed(org, playbook!.id), input)
})
