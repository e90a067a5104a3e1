import { Effect, Either } from "effect"
import { defaultSettings, type RuntimeSettings } from "../../config/RuntimeConfig.js"
import { reject } from "../../domain/Rejection.js"
import type { DefinitionFormat } from "../DefinitionFormat.js"
import { readInteraction } from "./readInteraction.js"
import { runInteraction } from "./runInteraction.js"
import { callUnserved, repliesUnserved } from "./unserved.js"

/**
 * The interaction function format (function-formats.md §3) of a runtime with these settings: reads and checks
 * documents; refuses at save, as `unavailable`, a document that calls a tool or reads replies back, which this
 * runtime does not serve yet; runs a request held for an agent or delivered through a tool of the servers the
 * settings name, which finishes later, recorded in the same append as the run's start.
 */
export const interactionFormatOn = (settings: RuntimeSettings): DefinitionFormat => ({
  type: "interaction",
  read: (source) => Either.map(readInteraction(source), (read) => read.document),
  checkAtSave: (source) => {
    const read = readInteraction(source)
    if (Either.isLeft(read)) return Effect.succeed(read.left)
    if (read.right.call !== undefined) return Effect.fail(reject("unavailable", callUnserved))
    if (read.right.readsReplies) return Effect.fail(reject("unavailable", repliesUnserved))
    return Effect.succeed([])
  },
  run: (run) => runInteraction(run, settings),
  recordsWithStart: true
})

/** The interaction format of a runtime with no tool servers: a run that delivers through a tool is `tool_not_offered`. */
export const interactionFormat: DefinitionFormat = interactionFormatOn(defaultSettings)
