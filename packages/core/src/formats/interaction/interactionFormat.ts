import { Effect, Either, Option } from "effect"
import { defaultSettings, type RuntimeSettings } from "../../config/RuntimeConfig.js"
import { invalidInput, reject } from "../../domain/Rejection.js"
import type { ToolServers } from "../../ports/ToolServers.js"
import type { DefinitionFormat } from "../DefinitionFormat.js"
import { checkLookupTool } from "../lookup/checkLookupTool.js"
import { runLookupCall } from "../lookup/runLookupCall.js"
import { inputIssues } from "./inputIssues.js"
import { readInteraction } from "./readInteraction.js"
import { runInteraction } from "./runInteraction.js"

/** Whether a source calls a tool (`call`), whose run records its call after its start (ADR 0193). */
const callsATool = (source: string): boolean =>
  Either.match(readInteraction(source), { onLeft: () => false, onRight: (read) => read.call !== undefined })

/**
 * The interaction function format (function-formats.md §3) of a runtime with these settings and tool servers:
 * reads and checks documents; at save asks the server a `call` names for its tools and refuses, at the line of
 * `call`, one not offered or marked reads (decision F6); runs a request held for an agent or delivered through a
 * tool, which finishes later, recorded in the same append as the run's start; and runs a `call` within the request
 * that starts it, its one tool call recorded after the start (ADR 0193).
 */
export const interactionFormatOn = (
  settings: RuntimeSettings,
  port: Option.Option<ToolServers["Type"]>
): DefinitionFormat => ({
  type: "interaction",
  read: (source) => Either.map(readInteraction(source), (read) => read.document),
  checkAtSave: (source, _document, where) => {
    const read = readInteraction(source)
    if (Either.isLeft(read)) return Effect.succeed(read.left)
    const { call } = read.right
    if (call === undefined) return Effect.succeed([])
    if (where === undefined)
      return Effect.fail(reject("internal", "An interaction's save needs the playbook it belongs to."))
    return checkLookupTool(call, where, settings, port, "acts")
  },
  run: (run) => {
    const read = readInteraction(run.source)
    if (Either.isLeft(read) || read.right.call === undefined) return runInteraction(run, settings)
    const { document, call } = read.right
    const issues = inputIssues(document.inputSchema, run.input)
    if (issues.length > 0)
      return Effect.succeed({ _tag: "Rejected", rejection: invalidInput(issues, "input_schema") } as const)
    return runLookupCall(run, call, document.outputSchema, settings, port, "acts")
  },
  recordsWithStart: (source) => !callsATool(source)
})

/** The interaction format of a runtime with no tool servers: a run that delivers or calls through a tool is `tool_not_offered`. */
export const interactionFormat: DefinitionFormat = interactionFormatOn(defaultSettings, Option.none())
