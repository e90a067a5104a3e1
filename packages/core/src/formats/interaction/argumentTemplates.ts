import type { ArgumentTemplate } from "../lookup/readLookup.js"
import { checkTemplate } from "./checkTemplate.js"

/** One problem of a template inside a `with` value: the pointer of its string and the words. */
export interface ArgumentTemplateIssue {
  readonly pointer: string
  readonly message: string
}

/** The templates of a `with` value, by the pointer of the string that holds each, and the problems of those that do not parse. */
export interface ArgumentTemplates {
  readonly templates: ReadonlyMap<string, ArgumentTemplate>
  readonly issues: ReadonlyArray<ArgumentTemplateIssue>
}

/**
 * Parses every string of a `with` value (`call.with`, `deliver.with`) as a template over `variables`
 * (function-formats.md §1.5 typed arguments), walking lists and mappings; `pointer` is where the value sits.
 */
export const argumentTemplates = (
  value: unknown,
  pointer: string,
  variables: ReadonlyArray<string>
): ArgumentTemplates => {
  const templates = new Map<string, ArgumentTemplate>()
  const issues: Array<ArgumentTemplateIssue> = []
  const walk = (at: string, item: unknown): void => {
    if (typeof item === "string") {
      const checked = checkTemplate(item, variables)
      for (const issue of checked.issues)
        issues.push({ pointer: at, message: `line ${issue.line} of the template: ${issue.message}` })
      if (checked.template !== undefined) templates.set(at, { text: item, template: checked.template })
    } else if (Array.isArray(item))
      item.forEach((inner, index) => {
        walk(`${at}/${index}`, inner)
      })
    else if (item !== null && typeof item === "object")
      for (const [key, inner] of Object.entries(item))
        walk(`${at}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`, inner)
  }
  walk(pointer, value)
  return { templates, issues }
}
