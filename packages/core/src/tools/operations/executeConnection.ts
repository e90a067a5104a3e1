import { declare } from "../../catalog/Operation.js"
import { CallInput, callByHand, ToolCallResult, executeConnection as words } from "./callByHand.js"

/** execute_connection: calls a tool by hand whatever its mark, recorded on a stream of its own. */
export const executeConnection = declare({
  ...words,
  tag: "tool-servers",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/tool-servers/{server}/tools/{tool}/execute" },
  input: CallInput,
  output: ToolCallResult,
  permission: "playbook:write",
  hints: { reachesOutside: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["unavailable", "invalid_input"],
  handle: (input, context) => callByHand(input, context, false)
})
