import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { readPartition } from "../../ledger/readPartition.js"
import { type DefinitionRecord, ListedDefinition } from "../DefinitionRecord.js"
import { DefinitionType } from "../DefinitionType.js"
import { definitionsPartition, definitionsView } from "../definitionsProjection.js"

/** list_definitions's output. */
export const DefinitionList = Schema.Struct({ definitions: Schema.Array(ListedDefinition) }).annotations({
  identifier: "DefinitionList"
})

/** list_definitions: the definitions of one type, without overview, diagram, source and used_by. */
export const listDefinitions = declare({
  name: "list_definitions",
  title: "List definitions",
  description:
    "List the definitions of one type in the playbook, without their document, overview, diagram and used_by; retired ones only with include_retired.",
  tag: "definitions",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/definitions/{type}" },
  input: Schema.Struct({
    type: DefinitionType,
    include_retired: Schema.optional(Schema.Boolean.annotations({ description: "List retired definitions too." }))
  }),
  output: DefinitionList,
  permission: "playbook:read",
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  summarize: ({ definitions }, input) =>
    definitions.length === 0
      ? `The playbook has no ${input.type} definition.`
      : `Found ${definitions.length} ${input.type} definition${definitions.length === 1 ? "" : "s"}: ${definitions.map((definition) => definition.name).join(", ")}.`,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      const docs = yield* readPartition(definitionsView, definitionsPartition(org, playbook!.id, input.type))
      const found = docs.map((doc) => doc.data as DefinitionRecord)
      return {
        definitions: found
          .filter((definition) => input.include_retired === true || definition.status !== "retired")
          .map(
            ({
              overview: _overview,
              diagram: _diagram,
              source: _source,
              triggers_since: _since,
              uses: _uses,
              ...listed
            }) => listed
          )
      }
    })
})
