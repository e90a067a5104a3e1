import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { notFound } from "../../domain/Rejection.js"
import { Definition } from "../DefinitionRecord.js"
import { DefinitionType } from "../DefinitionType.js"
import { DefinitionName } from "../definitionFields.js"
import { readDefinition } from "../readDefinition.js"
import { withUsedBy } from "../withUsedBy.js"

/** get_definition's input: the definition (path), and the page preview's switches. */
export const GetDefinitionInput = Schema.Struct({
  type: DefinitionType,
  name: DefinitionName,
  render: Schema.optional(Schema.Boolean.annotations({ description: "Render the definition's page now." })),
  sample_output: Schema.optional(Schema.Unknown.annotations({ description: "An output to render the page over." }))
})

/** get_definition: a definition with its document, overview and diagram. */
export const getDefinition = declare({
  name: "get_definition",
  title: "Read a definition",
  description:
    "Read a function or workflow as it stands: its document, its overview, its diagram, its status and version, its input and output schemas, and the definitions that use it.",
  tag: "definitions",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/definitions/{type}/{name}" },
  input: GetDefinitionInput,
  output: Definition,
  permission: "playbook:read",
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["not_found"],
  summarize: (definition) =>
    `The ${definition.type === "workflow" ? "workflow" : `${definition.type} function`} “${definition.name}” is ${definition.status}, at version ${definition.version}.`,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      const definition = yield* readDefinition(org, playbook!.id, input.type, input.name)
      if (input.render === true)
        return yield* Effect.fail(
          notFound(`This runtime keeps the pages of definitions but does not render them yet (decision F10).`)
        )
      if (definition.status === "active" || definition.triggers_since === undefined)
        return yield* withUsedBy(org, playbook!.id, definition)
      const { triggers_since: _since, ...standing } = definition
      return yield* withUsedBy(org, playbook!.id, standing)
    })
})
