import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { cutText } from "../../formats/cutText.js"
import { offeredTool } from "../offeredTool.js"
import { Mark, MarkedBy } from "../ToolSearch.js"
import { ToolPath } from "./toolFields.js"

/** The hints a server gives a tool, each where it gives it. */
const Hints = Schema.Struct({
  readOnlyHint: Schema.optional(Schema.Boolean),
  destructiveHint: Schema.optional(Schema.Boolean),
  idempotentHint: Schema.optional(Schema.Boolean),
  openWorldHint: Schema.optional(Schema.Boolean)
})

/** One tool in full, as introspect answers it. */
export const ToolDescription = Schema.Struct({
  server: Schema.String,
  tool: Schema.String,
  description: Schema.String,
  input_schema: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  annotations: Schema.optional(Hints),
  mark: Mark,
  marked_by: MarkedBy
}).annotations({ identifier: "ToolDescription" })

/** introspect: one tool as its server lists it now, with its mark and what gave it. */
export const introspect = declare({
  name: "introspect",
  title: "Read one tool",
  description:
    "Read one tool of a tool server the playbook may use, as its server lists it now: its description, the JSON Schema of its arguments (input_schema), the hints its server gives, and its mark (reads, acts or unmarked) with what gave it. A tool of an HTTP API takes one object: each path and query parameter by its name, and body for a JSON body.",
  tag: "tool-servers",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/tool-servers/{server}/tools/{tool}" },
  input: Schema.Struct(ToolPath),
  output: ToolDescription,
  permission: "playbook:read",
  hints: { reachesOutside: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["unavailable"],
  summarize: (output) =>
    `The tool ${output.server}/${output.tool} is marked ${output.mark} by its ${output.marked_by}.`,
  handle: (input, { org, playbook }) =>
    Effect.map(offeredTool(org, playbook!.id, input.server, input.tool), ({ tool }) => ({
      server: input.server,
      tool: tool.name,
      description: cutText(tool.description, 4096),
      input_schema: tool.inputSchema,
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      mark: tool.mark,
      marked_by: tool.markedBy
    }))
})
