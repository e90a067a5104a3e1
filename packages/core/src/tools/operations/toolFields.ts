import { Schema } from "effect"
import { ServerName, ToolName } from "../ToolSearch.js"

/** The server and the tool in the path of the operations on one tool. */
export const ToolPath = { server: ServerName, tool: ToolName }

/** A tool's arguments: the object its input schema takes. */
export const ToolArguments = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
  description: "The arguments, the object the tool's input_schema takes; at most 256 KiB as JSON."
})
