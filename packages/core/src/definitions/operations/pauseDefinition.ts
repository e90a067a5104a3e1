import { Effect, Schema } from "effect"
import { definitionRetired } from "../changeDefinition.js"
import type { DefinitionType } from "../DefinitionType.js"
import { lifecycleOperation } from "./lifecycleOperation.js"

/** pause_definition: nothing starts a run of it until it is resumed; pausing a paused one records nothing. */
export const pauseDefinition = lifecycleOperation<{ type: DefinitionType; name: string; reason?: string }>({
  name: "pause_definition",
  title: "Pause a definition",
  description:
    "Pause a function or workflow, so that nothing starts a run of it until it is resumed, with an optional reason. Runs already going finish. Pausing a paused definition changes nothing.",
  verb: "pause",
  fields: {
    reason: Schema.optional(
      Schema.String.pipe(
        Schema.filter((reason) => (reason.length >= 1 && reason.length <= 1024) || "must be 1 to 1,024 characters", {
          jsonSchema: { minLength: 1, maxLength: 1024 }
        })
      ).annotations({ description: "Why it is paused, 1 to 1,024 characters." })
    )
  },
  idempotent: true,
  said: (definition) =>
    definition.status === "paused"
      ? "is paused; nothing starts a run of it until it is resumed"
      : `is ${definition.status}`,
  decide: (definition, input, caller) => {
    if (definition.status === "retired") return Effect.fail(definitionRetired(definition, "paused"))
    if (definition.status === "paused") return Effect.succeed([])
    return Effect.succeed([
      {
        type: "definition_paused",
        data: { paused_by: caller.reference, ...(input.reason === undefined ? {} : { reason: input.reason }) }
      }
    ])
  }
})
