import type { Fact } from "../domain/Fact.js"
import type { PlaybookRecord } from "./PlaybookRecord.js"
import type { PlaybookCreated, PlaybookPageSaved, PlaybookUpdated } from "./playbookFacts.js"

/** Folds one playbook fact into the playbook as it stands: the one place a playbook's state is derived. */
export const foldPlaybook = (current: PlaybookRecord | undefined, fact: Fact): PlaybookRecord | undefined => {
  const at = fact.metadata.at
  switch (fact.type) {
    case "playbook_created": {
      const data = fact.data as PlaybookCreated
      return {
        id: data.playbook,
        name: data.name,
        description: data.description,
        status: "active",
        created_at: at,
        created_by: data.created_by,
        updated_at: at
      }
    }
    case "playbook_updated":
      return current && { ...current, ...(fact.data as PlaybookUpdated), updated_at: at }
    case "playbook_page_saved": {
      if (current === undefined) return current
      const { source } = fact.data as PlaybookPageSaved
      const { page: _page, ...rest } = current
      return source === null ? { ...rest, updated_at: at } : { ...rest, page: { source }, updated_at: at }
    }
    case "playbook_retired":
      return current && { ...current, status: "retired", retired_at: at, updated_at: at }
    case "playbook_restored": {
      if (current === undefined) return current
      const { retired_at: _retired, ...rest } = current
      return { ...rest, status: "active", updated_at: at }
    }
    default:
      return current
  }
}
