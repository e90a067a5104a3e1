import { Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { conflict, invalidInput } from "../../domain/Rejection.js"
import { checkTriggerRoom } from "../../workflow/triggers/triggerRoom.js"
import { changeDefinition } from "../changeDefinition.js"
import { checkDiagram } from "../checkDiagram.js"
import { Definition } from "../DefinitionRecord.js"
import { DefinitionType } from "../DefinitionType.js"
import type { DefinitionCreated } from "../definitionFacts.js"
import { DefinitionDiagram, DefinitionName, DefinitionOverview, DefinitionSource } from "../definitionFields.js"
import { definitionStudioLink } from "../definitionStudioLink.js"
import { readSource, versionData } from "../readSource.js"
import { withUsedBy } from "../withUsedBy.js"

/** create_definition's input: the type (path), the name, the document, its overview and a function's diagram. */
export const CreateDefinitionInput = Schema.Struct({
  type: DefinitionType,
  name: DefinitionName,
  source: DefinitionSource,
  diagram: Schema.optional(DefinitionDiagram),
  overview: Schema.optional(DefinitionOverview)
})

/** create_definition: saves the first version of a function or a workflow under a name the type never had. */
export const createDefinition = declare({
  name: "create_definition",
  title: "Create a definition",
  description:
    "Save a new function or workflow from its document, given as source, with its overview and, for a function, its diagram. Each part of a job is its own function, of the type its work needs: computation for a calculation on data, lookup for a read of a connected service, reasoning for judgement by a model, interaction for a question to a person, prediction for a forecast from the playbook's history, generation for an image or audio. A workflow owns one job the business does again and again; a check, a test or a setup is not one. Read the type's guide with get_guide for its format.",
  tag: "definitions",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/definitions/{type}" },
  input: CreateDefinitionInput,
  output: Definition,
  success: 201,
  permission: "playbook:write",
  hints: { reachesOutside: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["conflict", "unavailable"],
  summarize: (definition) =>
    `Created the ${definition.type === "workflow" ? "workflow" : `${definition.type} function`} “${definition.name}”.${definition.description ? ` What it does: ${definition.description}` : ""} It has been saved but has not been run yet.`,
  handle: (input, { caller, org, playbook, origin }) =>
    Effect.gen(function* () {
      const diagramIssue = checkDiagram(input.type, input.diagram)
      if (diagramIssue !== undefined) return yield* Effect.fail(invalidInput([diagramIssue]))
      const document = yield* readSource(input.type, input.source, { org, playbook: playbook!.id })
      yield* checkTriggerRoom(org, playbook!.id, input.name, document)
      const created: DefinitionCreated = {
        type: input.type,
        name: input.name,
        created_by: caller.reference,
        ...versionData(1, input, document)
      }
      const { definition } = yield* changeDefinition(
        { org, playbook: playbook!.id, type: input.type, name: input.name, caller },
        (current) =>
          current === undefined
            ? Effect.succeed([{ type: "definition_created", data: created }])
            : Effect.fail(
                conflict(
                  `The playbook ${playbook!.id} has or had a ${input.type} definition named ${input.name}${current.status === "retired" ? " (retired; restore it with restore_definition)" : ""}; choose another name, or change it with update_definition.`
                )
              )
      )
      return {
        ...(yield* withUsedBy(org, playbook!.id, definition)),
        ...(yield* definitionStudioLink(origin, playbook!.id, definition, "created"))
      }
    })
})
