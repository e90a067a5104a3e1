import { Effect, Either } from "effect"
import type { Models } from "../../models/Models.js"
import type { DefinitionFormat } from "../DefinitionFormat.js"
import { openToolbox, type ReasoningTools } from "./openToolbox.js"
import { readReasoning } from "./readReasoning.js"
import { runReasoning } from "./runReasoning.js"

/**
 * The reasoning function format (function-formats.md §2): reads and checks documents (the model and tools are not
 * checked against this runtime's settings at save), and runs them on the runtime's models, with the tool servers
 * when it has them.
 */
export const reasoningFormat = (models: Models["Type"], tools: ReasoningTools): DefinitionFormat => ({
  type: "reasoning",
  read: (source) => Either.map(readReasoning(source), (read) => read.document),
  checkAtSave: () => Effect.succeed([]),
  run: (run) => runReasoning(run, models, openToolbox(tools))
})
