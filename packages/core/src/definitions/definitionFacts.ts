import type { CallerReference } from "../domain/Caller.js"
import type { ToolMarkSeen } from "../formats/DefinitionFormat.js"
import type { TriggerView } from "../workflow/triggers/TriggerView.js"
import type { DefinitionType } from "./DefinitionType.js"
import type { DefinitionUse } from "./DefinitionUse.js"

/** What a saved version holds: the document as written, the API fields beside it, and what its format read. */
export interface DefinitionVersionData {
  readonly version: number
  readonly source: string
  readonly overview?: string
  readonly diagram?: string
  readonly description?: string
  readonly input_schema?: unknown
  readonly output_schema?: unknown
  readonly shape?: "table" | "series" | "asset"
  /** A workflow's triggers, in document order. */
  readonly triggers?: ReadonlyArray<TriggerView>
  /** A lookup's tool and the mark the save saw on it (decision F5). */
  readonly tool_mark?: ToolMarkSeen
  /** The definitions of the playbook the version calls or reads the runs of (ADR 0015). */
  readonly uses?: ReadonlyArray<DefinitionUse>
  readonly warnings: ReadonlyArray<string>
  readonly finishes_later: boolean
  readonly calls_tools: boolean
}

/** `definition_created`: the first version of a definition. */
export interface DefinitionCreated extends DefinitionVersionData {
  readonly type: DefinitionType
  readonly name: string
  readonly created_by: CallerReference
}

/** `definition_updated`: a new version. */
export type DefinitionUpdated = DefinitionVersionData

/** `definition_paused`: who paused it and why. */
export interface DefinitionPaused {
  readonly paused_by: CallerReference
  readonly reason?: string
}

/** `definition_restored`: it comes back paused, by the caller who restored it (decision N1). */
export interface DefinitionRestored {
  readonly paused_by: CallerReference
}

/** Every fact type of a definition's stream. */
export const definitionFactTypes = [
  "definition_created",
  "definition_updated",
  "definition_paused",
  "definition_resumed",
  "definition_retired",
  "definition_restored"
] as const

/** The stream of one definition: `playbook/<org>/<playbook>/definitions/<type>/<name>`. */
export const definitionStream = (org: string, playbook: string, type: DefinitionType, name: string): string =>
  `playbook/${org}/${playbook}/definitions/${type}/${name}`
