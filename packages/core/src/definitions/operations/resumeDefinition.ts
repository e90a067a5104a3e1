import { Effect } from "effect"
import { definitionRetired } from "../changeDefinition.js"
import type { DefinitionType } from "../DefinitionType.js"
import { lifecycleOperation } from "./lifecycleOperation.js"

/** resume_definition: a paused definition is active again; resuming an active one records nothing. */
export const resumeDefinition = lifecycleOperation<{ type: DefinitionType; name: string }>({
  name: "resume_definition",
  title: "Resume a definition",
  description:
    "Resume a paused function or workflow, which runs again as before; its triggers start runs again from the first time or event after it. Resuming an active definition changes nothing.",
  verb: "resume",
  fields: {},
  idempotent: true,
  said: (definition) => `is ${definition.status}`,
  decide: (definition) => {
    if (definition.status === "retired") return Effect.fail(definitionRetired(definition, "resumed"))
    return Effect.succeed(definition.status === "paused" ? [{ type: "definition_resumed", data: {} }] : [])
  }
})
