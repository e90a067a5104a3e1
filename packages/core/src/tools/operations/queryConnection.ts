import { declare } from "../../catalog/Operation.js"
import { CallInput, callByHand, ToolCallResult, queryConnection as words } from "./callByHand.js"

/** query_connection: calls a tool marked reads by hand, recorded on a stream of its own. */
export const queryConnection = declare({
  ...words,
  tag: "tool-servers",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/tool-servers/{server}/tools/{tool}/query" },
  input: CallInput,
  output: ToolCallResult,
  permission: "playbook:write",
  hints: { readOnly: true, idempotent: false, reachesOutside: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["unavailable", "invalid_input"],
  handle: (input, context) => callByHand(input, context, true)
})
