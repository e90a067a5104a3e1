import { Effect, Either, type Option } from "effect"
import type { RuntimeSettings } from "../../config/RuntimeConfig.js"
import { invalidInput, reject } from "../../domain/Rejection.js"
import type { ToolServers } from "../../ports/ToolServers.js"
import type { DefinitionFormat } from "../DefinitionFormat.js"
import { schemaValidator } from "../jsonSchema/SchemaValidator.js"
import { checkLookupTool } from "./checkLookupTool.js"
import { readLookup } from "./readLookup.js"
import { runLookupCall } from "./runLookupCall.js"
import { runLookupRuns } from "./runLookupRuns.js"
import { toolMarkAtSave } from "./toolMarkAtSave.js"

/**
 * The lookup function format (function-formats.md §5.2, decisions F1 and F5): reads documents; at save asks the
 * named server for its tools and refuses one not offered or not marked reads at the line of `call`, the version
 * recording the mark it saw; runs within the request that starts them, calling the tool once (refused when its
 * server no longer marks it reads), or reading another definition's runs.
 */
export const lookupFormat = (
  settings: RuntimeSettings,
  port: Option.Option<ToolServers["Type"]>
): DefinitionFormat => ({
  type: "lookup",
  read: (source) => Either.map(readLookup(source), (read) => read.document),
  checkAtSave: (source, _document, where) => {
    const read = readLookup(source)
    if (Either.isLeft(read)) return Effect.succeed(read.left)
    if (read.right.call === undefined) return Effect.succeed([])
    if (where === undefined) return Effect.fail(reject("internal", "A lookup's save needs the playbook it belongs to."))
    return checkLookupTool(read.right.call, where, settings, port, "reads")
  },
  foundAtSave: (source) => toolMarkAtSave(source, port),
  run: (run) =>
    Effect.gen(function* () {
      const read = readLookup(run.source)
      if (Either.isLeft(read))
        return {
          _tag: "Rejected",
          rejection: reject("internal", "The saved document of this version no longer reads.")
        } as const
      const { document, call, runs } = read.right
      const issues =
        document.inputSchema === undefined
          ? []
          : Either.match(schemaValidator(document.inputSchema), {
              onLeft: () => [],
              onRight: (validate) => validate(run.input, "/input")
            })
      if (issues.length > 0) return { _tag: "Rejected", rejection: invalidInput(issues, "input_schema") } as const
      if (call !== undefined) return yield* runLookupCall(run, call, document.outputSchema, settings, port, "reads")
      return yield* runLookupRuns(run, runs!)
    })
})
