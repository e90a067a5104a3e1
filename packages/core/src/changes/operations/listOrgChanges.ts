import { declare } from "../../catalog/Operation.js"
import { answerChanges } from "../answerChanges.js"
import { OrgChanges } from "../Change.js"
import { ChangesInput } from "../ChangesInput.js"
import { changesSummary } from "../changesSummary.js"
import { orgChangeFeed } from "../orgChangeFeed.js"

/** list_org_changes: what changed in the org's playbooks and its own comments since a cursor, held until it does. */
export const listOrgChanges = declare({
  name: "list_org_changes",
  title: "List the org's changes",
  description:
    "Learn what changed in the organization after the cursor of an earlier answer: its playbooks the caller may access, and its own comments. Without since, the answer comes at once with the cursor of now. With it, the request is held until something changes or wait seconds pass.",
  tag: "changes",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/changes" },
  input: ChangesInput,
  output: OrgChanges,
  permission: ["org:read", "playbook:read"],
  served: { http: true, mcp: [] },
  summarize: changesSummary,
  handle: (input, { caller, org }) => answerChanges(orgChangeFeed(org, caller), input)
})
