import { definitionTypes } from "../definitions/DefinitionType.js"

const playbook = "[a-z][a-z0-9-]{2,47}"
const uuid = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
const type = `(?:${definitionTypes.join("|")})`
const name = "[a-z][a-z0-9-]{2,47}"

/** The address forms of the activity's items, each with the playbook it names in its first group. */
const playbookForms = [
  new RegExp(`^(${playbook})/${uuid}$`),
  new RegExp(`^(${playbook})/${type}/${name}$`),
  new RegExp(`^(${playbook})/runs/${uuid}$`),
  new RegExp(`^(${playbook})/definitions/${type}/${name}/[1-9][0-9]{0,8}$`),
  new RegExp(`^playbooks/(${playbook})/(?:0|[1-9][0-9]{0,15})$`),
  new RegExp(`^(${playbook})/comments/${uuid}$`)
]
const orgComment = new RegExp(`^org/comments/${uuid}$`)

/**
 * Whose an item's address is (HTTP "The rows", addresses): `{ playbook }` for an item of a playbook, `{ playbook:
 * null }` for a comment of the organization's own, or undefined for an address of no form of the activity.
 */
export const ownerOfItem = (address: string): { readonly playbook: string | null } | undefined => {
  if (orgComment.test(address)) return { playbook: null }
  for (const form of playbookForms) {
    const found = form.exec(address)
    if (found !== null) return { playbook: found[1] }
  }
  return undefined
}

/** An ISO 8601 date and time with its offset, as a row's `at` is written. */
const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/

/** Whether an item's `at` is a time. */
export const isTime = (at: string): boolean => isoTime.test(at) && Number.isFinite(Date.parse(at))
