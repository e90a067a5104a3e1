import type { DefinitionVersionData } from "../../definitions/definitionFacts.js"
import type { Fact } from "../../domain/Fact.js"
import type { Projection, ViewKey } from "../../ports/Views.js"
import { type TriggerCursorMoved, triggerCursorMoved } from "./triggerFacts.js"

/** The view of how far each playbook's facts were matched against its event triggers (ADR 0283). */
export const triggerCursorsView = "trigger_cursors"

/** The one partition of the cursor view: one document per playbook that ever had an event trigger. */
export const triggerCursorsPartition = "cursors"

/**
 * A playbook's event-trigger cursor: the position of the last fact matched (none yet: from just before
 * `first_record`, the first record that activated an event trigger), and the cursor stream's version.
 */
export interface TriggerCursor {
  readonly org: string
  readonly playbook: string
  readonly first_record: string
  readonly position?: string
  readonly version: number
}

const keyOf = (org: string, playbook: string): ViewKey => ({
  view: triggerCursorsView,
  partition: triggerCursorsPartition,
  id: `${org}/${playbook}`
})

/** Whether a fact saves a workflow version with an event trigger. */
const savesEventTrigger = (fact: Fact): boolean =>
  (fact.type === "definition_created" || fact.type === "definition_updated") &&
  fact.metadata.stream.split("/")[4] === "workflow" &&
  ((fact.data as DefinitionVersionData).triggers ?? []).some((trigger) => trigger.kind === "event")

/** Folds the first event trigger of a playbook and each cursor move into the playbook's cursor document. */
export const triggerCursorsProjection: Projection = {
  view: triggerCursorsView,
  types: ["definition_created", "definition_updated", triggerCursorMoved],
  keys: (fact) => {
    const parts = fact.metadata.stream.split("/")
    if (fact.type === triggerCursorMoved) return parts.length === 3 ? [keyOf(parts[1]!, parts[2]!)] : []
    return savesEventTrigger(fact) ? [keyOf(parts[1]!, parts[2]!)] : []
  },
  apply: (current, fact, key) => {
    const cursor = current?.data as TriggerCursor | undefined
    if (fact.type !== triggerCursorMoved) {
      if (cursor !== undefined) return current
      const [org, playbook] = key.id.split("/")
      const data: TriggerCursor = { org: org!, playbook: playbook!, first_record: fact.id, version: 0 }
      return { id: key.id, sort: key.id, data }
    }
    if (cursor === undefined) return undefined
    const moved: TriggerCursor = {
      ...cursor,
      position: (fact.data as TriggerCursorMoved).position,
      version: fact.metadata.position
    }
    return { id: key.id, sort: key.id, data: moved }
  }
}
