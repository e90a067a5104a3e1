import { Effect } from "effect"
import { declare } from "../../catalog/Operation.js"
import { invalidInput } from "../../domain/Rejection.js"
import { checkTriggerRoom } from "../../workflow/triggers/triggerRoom.js"
import { changeDefinition, definitionRetired, noSuchDefinition } from "../changeDefinition.js"
import { checkDiagram } from "../checkDiagram.js"
import { Definition } from "../DefinitionRecord.js"
import { definitionStudioLink } from "../definitionStudioLink.js"
import { readSource, versionData } from "../readSource.js"
import { withUsedBy } from "../withUsedBy.js"
import { CreateDefinitionInput } from "./createDefinition.js"

/** update_definition's input: the definition (path), its document, a function's diagram and an optional overview. */
export const UpdateDefinitionInput = CreateDefinitionInput

/**
 * update_definition: a new version from a changed document, overview or diagram. Identical source and diagram
 * with the same overview (or none given) record nothing; a paused definition stays paused.
 */
export const updateDefinition = declare({
  name: "update_definition",
  title: "Update a definition",
  description:
    "Save a new version of a function or workflow from its changed document, overview or diagram. A function's diagram is given every time. Saving what is already saved records nothing. A paused definition stays paused.",
  tag: "definitions",
  kind: "command",
  scope: "playbook",
  route: { method: "PUT", path: "/definitions/{type}/{name}" },
  input: UpdateDefinitionInput,
  output: Definition,
  permission: "playbook:write",
  hints: { idempotent: true, reachesOutside: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["not_found", "conflict", "unavailable"],
  summarize: (definition) =>
    `The ${definition.type === "workflow" ? "workflow" : `${definition.type} function`} “${definition.name}” stands at version ${definition.version}.`,
  handle: (input, { caller, org, playbook, origin }) =>
    Effect.gen(function* () {
      const diagramIssue = checkDiagram(input.type, input.diagram)
      if (diagramIssue !== undefined) return yield* Effect.fail(invalidInput([diagramIssue]))
      const document = yield* readSource(input.type, input.source, { org, playbook: playbook!.id })
      yield* checkTriggerRoom(org, playbook!.id, input.name, document)
      const { definition, changed } = yield* changeDefinition(
        { org, playbook: playbook!.id, type: input.type, name: input.name, caller },
        (current) => {
          if (current === undefined) return Effect.fail(noSuchDefinition({ playbook: playbook!.id, ...input }))
          if (current.status === "retired") return Effect.fail(definitionRetired(current, "updated"))
          const overview = input.overview ?? current.overview
          if (current.source === input.source && current.diagram === input.diagram && current.overview === overview)
            return Effect.succeed([])
          return Effect.succeed([
            {
              type: "definition_updated",
              data: versionData(
                current.version + 1,
                { ...input, ...(overview === undefined ? {} : { overview }) },
                document
              )
            }
          ])
        }
      )
      return {
        ...(yield* withUsedBy(org, playbook!.id, definition)),
        ...(yield* definitionStudioLink(origin, playbook!.id, definition, changed ? "updated" : undefined))
      }
    })
})
