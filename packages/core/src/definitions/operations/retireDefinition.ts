import { Effect } from "effect"
import type { DefinitionType } from "../DefinitionType.js"
import { lifecycleOperation } from "./lifecycleOperation.js"

/** retire_definition: it keeps its name and history and can be read; retiring it again records nothing. */
export const retireDefinition = lifecycleOperation<{ type: DefinitionType; name: string }>({
  name: "retire_definition",
  title: "Retire a definition",
  description:
    "Retire a function or workflow, keeping its name and history: it can be read but not edited, run, paused or resumed until restore_definition brings it back. Retiring a retired definition changes nothing.",
  verb: "retire",
  fields: {},
  idempotent: true,
  said: () => "is retired; it keeps its name and history",
  decide: (definition) =>
    Effect.succeed(definition.status === "retired" ? [] : [{ type: "definition_retired", data: {} }])
})
