import type { Fact } from "../domain/Fact.js"
import type { DefinitionRecord } from "./DefinitionRecord.js"
import type {
  DefinitionCreated,
  DefinitionPaused,
  DefinitionRestored,
  DefinitionVersionData
} from "./definitionFacts.js"

/** The fields a version sets, replacing those of the version before; `id` is the record that saved it. */
const versionFields = (data: DefinitionVersionData, id: string) => ({
  version: data.version,
  source: data.source,
  overview: data.overview,
  diagram: data.diagram,
  description: data.description,
  input_schema: data.input_schema,
  output_schema: data.output_schema,
  details: data.shape === undefined ? undefined : { shape: data.shape },
  warnings: data.warnings.length === 0 ? undefined : data.warnings,
  triggers: data.triggers,
  triggers_since: data.triggers === undefined ? undefined : id,
  uses: data.uses,
  finishes_later: data.finishes_later,
  calls_tools: data.calls_tools
})

/** Drops the keys whose value is undefined, so a record carries only the fields it has. */
const defined = (record: Record<string, unknown>): DefinitionRecord =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as DefinitionRecord

/** Folds one definition fact into the definition as it stands: the one place its state is derived. */
export const foldDefinition = (current: DefinitionRecord | undefined, fact: Fact): DefinitionRecord | undefined => {
  const at = fact.metadata.at
  switch (fact.type) {
    case "definition_created": {
      const data = fact.data as DefinitionCreated
      return defined({
        type: data.type,
        name: data.name,
        status: "active",
        created_at: at,
        created_by: data.created_by,
        updated_at: at,
        ...versionFields(data, fact.id)
      })
    }
    case "definition_updated":
      return (
        current &&
        defined({ ...current, ...versionFields(fact.data as DefinitionVersionData, fact.id), updated_at: at })
      )
    case "definition_paused": {
      const data = fact.data as DefinitionPaused
      return (
        current &&
        defined({ ...current, status: "paused", paused_at: at, paused_by: data.paused_by, paused_reason: data.reason })
      )
    }
    case "definition_resumed":
      return (
        current &&
        defined({ ...current, status: "active", paused_at: undefined, paused_by: undefined, paused_reason: undefined })
      )
    case "definition_retired":
      return current && defined({ ...current, status: "retired", retired_at: at })
    case "definition_restored": {
      const data = fact.data as DefinitionRestored
      return (
        current &&
        defined({
          ...current,
          status: "paused",
          retired_at: undefined,
          paused_at: at,
          paused_by: data.paused_by,
          paused_reason: undefined
        })
      )
    }
    default:
      return current
  }
}
