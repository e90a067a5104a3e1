import type { Liquid, Template } from "liquidjs"
import { removedFilters, removedTags, templateBounds, templateEngine } from "./templateEngine.js"

/** One problem of a template, at a line and column within the template (both 1-based). */
export interface TemplateIssue {
  readonly line: number
  readonly column: number
  readonly message: string
}

/** Variables that hold one moment as text, so they have no properties. */
const moments = new Set(["today", "now"])

/** Block tags that nest, counted against the nesting bound before the engine parses anything. */
const nestingTags = new Set(["if", "unless", "for", "case", "tablerow", "comment", "raw"])

/** The deepest nesting of block tags and parentheses, and how many names the tags and outputs hold. */
const measure = (text: string) => {
  let depth = 0
  let deepest = 0
  let names = 0
  for (const [, inside] of text.matchAll(/\{[{%]-?([\s\S]*?)-?[}%]\}/g)) {
    const tag = /^\s*(end)?(\w+)/.exec(inside ?? "")
    if (tag !== null && nestingTags.has(tag[2]!)) depth += tag[1] === undefined ? 1 : -1
    let parentheses = 0
    for (const character of inside ?? "") {
      if (character === "(") parentheses++
      else if (character === ")") parentheses--
      deepest = Math.max(deepest, depth + parentheses)
    }
    deepest = Math.max(deepest, depth)
    names += (inside ?? "").match(/[A-Za-z_][\w-]*/g)?.length ?? 0
  }
  return { deepest, names }
}

const positionOf = (error: unknown): { line: number; column: number } => {
  const position = (error as { token?: { getPosition?: () => [number, number] } }).token?.getPosition?.()
  return position === undefined ? { line: 1, column: 1 } : { line: position[0], column: position[1] }
}

/** Our words for an error the engine raised while parsing. */
const parseWords = (message: string): string => {
  const first = message.split(", line:")[0] ?? message
  const tag = /tag "?([\w#]+)"? not found/.exec(first)
  if (tag !== null) {
    const reason = removedTags.get(tag[1]!)
    return reason === undefined
      ? `the tag ${tag[1]} does not exist`
      : `the tag ${tag[1]} is not allowed in templates: ${reason}`
  }
  const filter = /undefined filter: ([\w-]+)/.exec(first)
  if (filter !== null) {
    const reason = removedFilters.get(filter[1]!)
    return reason === undefined
      ? `the filter ${filter[1]} does not exist`
      : `the filter ${filter[1]} is not allowed in templates: ${reason}`
  }
  return `the template cannot be read: ${first}`
}

/**
 * Checks a template at save (function-formats.md §1.5): its length, `${`, the nesting and names bounds (our own
 * words, never the engine's), then the engine's parse (unknown or removed tags and filters), then every variable
 * it reads from outside against `variables` (names it creates with assign, for, increment or cycle are its own),
 * on the runtime's engine unless another (a prompt's) is given.
 * Right: the parsed template. Left: the issues.
 */
export const checkTemplate = (
  text: string,
  variables: ReadonlyArray<string>,
  engine: Liquid = templateEngine
): { readonly issues: ReadonlyArray<TemplateIssue>; readonly template?: ReadonlyArray<Template> } => {
  if (text.length > templateBounds.characters)
    return {
      issues: [
        {
          line: 1,
          column: 1,
          message: `the template holds ${text.length} characters; at most ${templateBounds.characters} are allowed`
        }
      ]
    }
  const issues: Array<TemplateIssue> = []
  const interpolation = text.indexOf("${")
  if (interpolation >= 0) {
    const before = text.slice(0, interpolation).split("\n")
    issues.push({
      line: before.length,
      column: [...before[before.length - 1]!].length + 1,
      message: "a template may not contain ${: documents are never filled from the environment or secrets"
    })
  }
  const { deepest, names } = measure(text)
  if (deepest > templateBounds.nesting)
    return {
      issues: [
        ...issues,
        { line: 1, column: 1, message: `the template nests deeper than ${templateBounds.nesting} levels` }
      ]
    }
  if (names > templateBounds.names)
    issues.push({
      line: 1,
      column: 1,
      message: `the template's tags and outputs hold ${names} names; at most ${templateBounds.names} are allowed`
    })
  let template: Array<Template>
  try {
    template = engine.parse(text)
  } catch (error) {
    return { issues: [...issues, { ...positionOf(error), message: parseWords(String((error as Error).message)) }] }
  }
  try {
    const analysis = engine.analyzeSync(template)
    for (const [name, uses] of Object.entries(analysis.globals)) {
      for (const use of uses) {
        const at = { line: use.location.row, column: use.location.col }
        if (!variables.includes(name))
          issues.push({
            ...at,
            message: `unknown variable ${name}; this template reads ${variables.join(", ")} and the names it assigns`
          })
        else if (moments.has(name) && use.segments.length > 1)
          issues.push({ ...at, message: `${name} is text and has no properties` })
      }
    }
  } catch (error) {
    issues.push({ ...positionOf(error), message: parseWords(String((error as Error).message)) })
  }
  return issues.length > 0 ? { issues } : { issues, template }
}
