import { Effect } from "effect"
import type { DefinitionType } from "../DefinitionType.js"
import { lifecycleOperation } from "./lifecycleOperation.js"

/** restore_definition: a retired definition comes back paused, at its version (decision N5: every type). */
export const restoreDefinition = lifecycleOperation<{ type: DefinitionType; name: string }>({
  name: "restore_definition",
  title: "Restore a definition",
  description:
    "Restore a retired function or workflow at its version, with its page and history. It comes back paused, by you, and runs again once resumed with resume_definition. Restoring a definition that is not retired changes nothing.",
  verb: "restore",
  fields: {},
  idempotent: false,
  said: (definition) =>
    definition.status === "paused"
      ? "is restored and paused; resume it with resume_definition"
      : `is ${definition.status}`,
  decide: (definition, _input, caller) =>
    Effect.succeed(
      definition.status === "retired" ? [{ type: "definition_restored", data: { paused_by: caller.reference } }] : []
    )
})
