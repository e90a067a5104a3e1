import { Schema } from "effect"

/** The seven types of definition a playbook holds: six function types and the workflow. */
export const DefinitionType = Schema.Literal(
  "reasoning",
  "lookup",
  "interaction",
  "prediction",
  "computation",
  "generation",
  "workflow"
).annotations({ identifier: "DefinitionType", description: "The definition's type." })
export type DefinitionType = typeof DefinitionType.Type

/** Every definition type, in the seeds' order. */
export const definitionTypes: ReadonlyArray<DefinitionType> = DefinitionType.literals
