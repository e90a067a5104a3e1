import { Either } from "effect"
import type { SourceIssue } from "../DefinitionFormat.js"
import { checkText } from "./checkText.js"
import type { Place } from "./Place.js"
import { readYaml } from "./readYaml.js"

/** The deepest nesting a front matter may hold. */
export const maxFrontMatterDepth = 72

/** A document's front matter as read: its value, its body, and where to place issues about either. */
export interface FrontMatter {
  /** The front matter as JSON-like data (mappings as objects, keys as strings). */
  readonly value: { readonly [key: string]: unknown }
  /** The text after the closing `---` line. */
  readonly body: string
  /** The document line the body starts on. */
  readonly bodyLine: number
  /** Issues the envelope found that do not stop the reading: unknown keys, anchors, tags, repeated keys… */
  readonly issues: ReadonlyArray<SourceIssue>
  /** An issue at the node a pointer names, or at its nearest ancestor that exists. */
  readonly issueAt: (pointer: string, message: string) => SourceIssue
  /** An issue at a line of the body, 1-based within the body, counted as a document line. */
  readonly bodyIssue: (bodyLine: number, column: number, message: string) => SourceIssue
}

const documentIssue = (message: string) => Either.left([{ line: 1, column: 1, pointer: "", message }])

const fence = /^---\r?$/

/**
 * Reads the envelope every function document shares (function-formats.md §1.1): the front matter between a
 * `---` line 1 and the next `---` line, as YAML 1.2 with the core schema, refusing anchors, aliases, tags,
 * repeated keys, non-finite numbers, nesting past 72 levels and every key `place` does not list. `label` names
 * the type in words ("a computation function") for the issue of an empty front matter.
 * Left: the document cannot be read at all. Right: the front matter, with the issues it has.
 */
export const readFrontMatter = (
  source: string,
  place: Place,
  label: string
): Either.Either<FrontMatter, ReadonlyArray<SourceIssue>> => {
  const textIssue = checkText(source)
  if (textIssue !== undefined) return Either.left([textIssue])
  const lines = source.split("\n")
  if (!fence.test(lines[0] ?? "")) {
    return documentIssue("the document must open with a line of exactly --- on line 1, then its front matter")
  }
  const closing = lines.findIndex((line, index) => index > 0 && fence.test(line))
  if (closing < 0) return documentIssue("the front matter opened on line 1 never closes with a line of exactly ---")
  const start = lines[0]!.length + 1
  const end = lines.slice(0, closing).reduce((sum, line) => sum + line.length + 1, 0)
  const bodyStart = Math.min(source.length, end + lines[closing]!.length + 1)
  const body = source.slice(bodyStart)
  const bodyLine = closing + 2
  const requiredWords = (required: ReadonlyArray<string>) => required.join(", ")
  return Either.flatMap(
    readYaml(source, {
      start,
      end,
      place,
      maxDepth: maxFrontMatterDepth,
      tooDeep: `the front matter nests deeper than ${maxFrontMatterDepth} levels`
    }),
    (yaml) => {
      if (yaml.empty) {
        return documentIssue(
          `the front matter is empty; ${label} needs the ${place.required?.length === 1 ? "key" : "keys"} ${requiredWords(place.required ?? [])}`
        )
      }
      const value = yaml.value
      return Either.right({
        value:
          typeof value === "object" && value !== null && !Array.isArray(value)
            ? (value as Record<string, unknown>)
            : {},
        body,
        bodyLine,
        issues: yaml.issues,
        issueAt: yaml.issueAt,
        bodyIssue: (line: number, column: number, message: string) => ({
          line: bodyLine + line - 1,
          column,
          pointer: "/body",
          message
        })
      })
    }
  )
}
