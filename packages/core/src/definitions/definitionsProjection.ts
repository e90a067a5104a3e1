import type { Projection } from "../ports/Views.js"
import type { DefinitionRecord } from "./DefinitionRecord.js"
import { definitionFactTypes } from "./definitionFacts.js"
import { foldDefinition } from "./foldDefinition.js"

/** The view of a playbook's definitions: partition `<org>/<playbook>/<type>`, one document per name. */
export const definitionsView = "definitions"

/** The partition of one type's definitions in a playbook. */
export const definitionsPartition = (org: string, playbook: string, type: string): string =>
  `${org}/${playbook}/${type}`

/** Folds definition facts into the `definitions` view, sorted by name. */
export const definitionsProjection: Projection = {
  view: definitionsView,
  types: definitionFactTypes,
  keys: (fact) => {
    const [, org, playbook, , type, name] = fact.metadata.stream.split("/")
    return [{ view: definitionsView, partition: definitionsPartition(org, playbook, type), id: name }]
  },
  apply: (current, fact, key) => {
    const next = foldDefinition(current?.data as DefinitionRecord | undefined, fact)
    return next === undefined ? undefined : { id: key.id, sort: key.id, data: next }
  }
}
