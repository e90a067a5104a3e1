import { Effect, Either } from "effect"
import { reject } from "../../domain/Rejection.js"
import type { DefinitionFormat } from "../DefinitionFormat.js"
import { readInteraction } from "./readInteraction.js"
import { runInteraction } from "./runInteraction.js"
import { toolServersUnserved } from "./toolServersUnserved.js"

/**
 * The interaction function format (function-formats.md §3): reads and checks documents; refuses at save, as
 * `unavailable`, a document that delivers through a tool or calls one; runs a request held for an agent, which
 * finishes later, recorded in the same append as the run's start.
 */
export const interactionFormat: DefinitionFormat = {
  type: "interaction",
  read: (source) => Either.map(readInteraction(source), (read) => read.document),
  checkAtSave: (source) => {
    const read = readInteraction(source)
    if (Either.isLeft(read)) return Effect.succeed(read.left)
    if (read.right.call !== undefined || read.right.deliver !== "agent")
      return Effect.fail(reject("unavailable", toolServersUnserved, { kind: "tool_not_offered" }))
    return Effect.succeed([])
  },
  run: runInteraction,
  recordsWithStart: true
}
