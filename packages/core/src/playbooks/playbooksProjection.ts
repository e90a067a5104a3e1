import type { Projection } from "../ports/Views.js"
import { foldPlaybook } from "./foldPlaybook.js"
import type { PlaybookRecord } from "./PlaybookRecord.js"
import { playbookFactTypes } from "./playbookFacts.js"

/** The view of an org's playbooks: one document per playbook, partition the org, sorted by id. */
export const playbooksView = "playbooks"

/** Folds playbook facts into the `playbooks` view. */
export const playbooksProjection: Projection = {
  view: playbooksView,
  types: playbookFactTypes,
  keys: (fact) => {
    const [, org, , id] = fact.metadata.stream.split("/")
    return [{ view: playbooksView, partition: org, id }]
  },
  apply: (current, fact, key) => {
    const next = foldPlaybook(current?.data as PlaybookRecord | undefined, fact)
    return next === undefined ? undefined : { id: key.id, sort: key.id, data: next }
  }
}
