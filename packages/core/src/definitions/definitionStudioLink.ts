import { Effect } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import { studioLink } from "../studio/studioLink.js"
import type { DefinitionRecord } from "./DefinitionRecord.js"

/** The definition's page in Studio: created or updated at a version, or the version that stands. */
export const definitionStudioLink = (
  origin: string,
  playbook: string,
  definition: DefinitionRecord,
  because: "created" | "updated" | undefined
): Effect.Effect<{ studio?: string }, never, RuntimeConfig> =>
  Effect.map(RuntimeConfig, (settings) => {
    const studio = studioLink(settings, origin, [
      ["src", "agent"],
      ["playbook", playbook],
      [definition.type, definition.name],
      ...(because === undefined ? [] : [["because", because] as const]),
      ["version", String(definition.version)]
    ])
    return studio === undefined ? {} : { studio }
  })
