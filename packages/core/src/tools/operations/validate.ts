import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { invalidAt } from "../../domain/Rejection.js"
import { argumentsTooLarge, checkArguments } from "../checkArguments.js"
import { offeredTool } from "../offeredTool.js"
import { ToolArguments, ToolPath } from "./toolFields.js"

/** An issue of arguments: the JSON pointer of the argument at fault and what is wrong there. */
const ArgumentIssue = Schema.Struct({ path: Schema.String, message: Schema.String })

/** What checking arguments found: valid, true or false, or null when the checker cannot tell; and the issues. */
export const ArgumentsCheck = Schema.Struct({
  valid: Schema.NullOr(Schema.Boolean),
  issues: Schema.Array(ArgumentIssue)
}).annotations({ identifier: "ArgumentsCheck" })

/** The refusal of arguments over 256 KiB as JSON. */
export const argumentsRefused = invalidAt(
  "/arguments",
  "arguments: may hold at most 256 KiB as JSON, the most a run takes as its input."
)

/** validate: checks arguments against a tool's input schema; calls nothing, changes nothing. */
export const validate = declare({
  name: "validate",
  title: "Check a tool's arguments",
  description:
    "Check arguments against a tool's input schema without calling it: valid (true, false, or null when the schema is one the runtime cannot check) and the issues, each at the JSON Pointer of the argument at fault.",
  tag: "tool-servers",
  kind: "query",
  scope: "playbook",
  route: { method: "POST", path: "/tool-servers/{server}/tools/{tool}/validate" },
  input: Schema.Struct({ ...ToolPath, arguments: ToolArguments }),
  output: ArgumentsCheck,
  permission: "playbook:read",
  hints: { reachesOutside: true },
  served: { http: true, mcp: [] },
  refusals: ["unavailable", "invalid_input"],
  summarize: (output) =>
    output.valid === null
      ? "The runtime cannot check these arguments against the tool's schema."
      : output.valid
        ? "The arguments fit the tool's input schema."
        : `The arguments have ${output.issues.length} issue${output.issues.length === 1 ? "" : "s"}.`,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      if (argumentsTooLarge(input.arguments)) return yield* Effect.fail(argumentsRefused)
      const { tool } = yield* offeredTool(org, playbook!.id, input.server, input.tool)
      return checkArguments(tool.inputSchema, input.arguments)
    })
})
