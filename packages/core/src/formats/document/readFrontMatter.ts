import { Either } from "effect"
import { isAlias, isMap, isScalar, isSeq, type Node, parseDocument } from "yaml"
import type { SourceIssue } from "../DefinitionFormat.js"
import { describeValue } from "./describeValue.js"
import { type Place, pointerOf } from "./Place.js"
import { type Position, sourceText } from "./SourceText.js"

/** The largest source document, in UTF-8 bytes (function-formats.md §1.1). */
export const maxDocumentBytes = 65_536

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

const issue = (position: Position, pointer: string, message: string): SourceIssue => ({ ...position, pointer, message })

const documentIssue = (message: string, position: Position = { line: 1, column: 1 }) =>
  Either.left([issue(position, "", message)])

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
  if (source.startsWith("\uFEFF"))
    return documentIssue("the document starts with a byte-order mark; save it without one")
  const bytes = Buffer.byteLength(source, "utf8")
  if (bytes > maxDocumentBytes) {
    return documentIssue(`the document holds ${bytes} bytes; at most ${maxDocumentBytes} are allowed`)
  }
  const text = sourceText(source)
  const loneReturn = /\r(?!\n)/.exec(source)
  if (loneReturn !== null) {
    return documentIssue(
      "a line ends with a lone carriage return; use \\n or \\r\\n",
      text.positionAt(loneReturn.index)
    )
  }
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
  const at = (offset: number) => text.positionAt(start + offset)
  /** The offset of the `&` or `!` that begins a node's anchor or tag, on the node's line before it. */
  const markBefore = (offset: number, mark: string) => {
    const found = source.lastIndexOf(mark, start + offset)
    return found < 0 || source.slice(found, start + offset).includes("\n") ? offset : found - start
  }
  const doc = parseDocument(source.slice(start, end), {
    schema: "core",
    version: "1.2",
    uniqueKeys: false,
    merge: false,
    prettyErrors: false
  })
  if (doc.errors.length > 0) {
    return Either.left(
      doc.errors.map((error) => issue(at(error.pos[0]), "", `the YAML cannot be read: ${error.message.split("\n")[0]}`))
    )
  }
  const requiredWords = (required: ReadonlyArray<string>) => required.join(", ")
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    return documentIssue(
      `the front matter is empty; ${label} needs the ${place.required?.length === 1 ? "key" : "keys"} ${requiredWords(place.required ?? [])}`
    )
  }
  const issues: Array<SourceIssue> = []
  const valueAt = new Map<string, number>()
  let tooDeep = false
  let hasAlias = false
  const walk = (node: Node | null, path: ReadonlyArray<string | number>, depth: number, here: Place | "value") => {
    if (node === null) return
    const pointer = pointerOf(path)
    const offset = node.range?.[0] ?? 0
    valueAt.set(pointer, offset)
    if (isAlias(node)) {
      hasAlias = true
      issues.push(issue(at(offset), pointer, "aliases (*name) are not allowed; write the value out"))
      return
    }
    if (node.anchor !== undefined) {
      issues.push(issue(at(markBefore(offset, "&")), pointer, "anchors (&name) are not allowed; write each value out"))
    }
    if (node.tag !== undefined) {
      issues.push(
        issue(at(markBefore(offset, "!")), pointer, `tags (${node.tag}) are not allowed; write plain YAML values`)
      )
    }
    if ((isMap(node) || isSeq(node)) && depth > maxFrontMatterDepth) {
      if (!tooDeep)
        issues.push(issue(at(offset), pointer, `the front matter nests deeper than ${maxFrontMatterDepth} levels`))
      tooDeep = true
      return
    }
    if (isScalar(node)) {
      if (typeof node.value === "number" && !Number.isFinite(node.value)) {
        issues.push(issue(at(offset), pointer, "non-finite numbers (.inf, .nan) are not allowed"))
      }
      if (here !== "value") issues.push(issue(at(offset), pointer, expectedMapping(here, node.toJSON())))
      return
    }
    if (isSeq(node)) {
      if (here !== "value") issues.push(issue(at(offset), pointer, expectedMapping(here, [])))
      node.items.forEach((item, index) => {
        walk(item as Node, [...path, index], depth + 1, "value")
      })
      return
    }
    if (!isMap(node)) return
    const seen = new Set<string>()
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null
      const keyOffset = keyNode?.range?.[0] ?? offset
      if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === "object") {
        issues.push(issue(at(keyOffset), pointer, "keys must be plain words, not lists, mappings or null"))
        continue
      }
      const key = String(keyNode.value)
      const keyPointer = pointerOf([...path, key])
      if (seen.has(key)) {
        issues.push(issue(at(keyOffset), keyPointer, `the key ${JSON.stringify(key)} is repeated in this mapping`))
        continue
      }
      seen.add(key)
      valueAt.set(keyPointer, keyOffset)
      if (here !== "value" && !(key in here.keys)) {
        issues.push(issue(at(keyOffset), keyPointer, unknownKey(key, here)))
        continue
      }
      walk(pair.value as Node | null, [...path, key], depth + 1, here === "value" ? "value" : here.keys[key]!)
    }
    if (here !== "value") {
      for (const key of here.required ?? []) {
        if (!seen.has(key)) issues.push(issue(at(offset), pointer, `the key ${key} is required here`))
      }
    }
  }
  walk(doc.contents as Node, [], 1, place)
  if (hasAlias) return Either.left(issues)
  const value = doc.toJS() as unknown
  const issueAt = (pointer: string, message: string): SourceIssue => {
    let nearest = pointer
    while (nearest !== "" && !valueAt.has(nearest)) nearest = nearest.slice(0, nearest.lastIndexOf("/"))
    return issue(at(valueAt.get(nearest) ?? 0), pointer, message)
  }
  return Either.right({
    value:
      typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {},
    body,
    bodyLine,
    issues,
    issueAt,
    bodyIssue: (line, column, message) => ({ line: bodyLine + line - 1, column, pointer: "/body", message })
  })
}

const keyList = (place: Place) => Object.keys(place.keys).join(", ")

const unknownKey = (key: string, place: Place): string => {
  const reason = place.refused?.[key]
  return `unknown key ${JSON.stringify(key)}${reason === undefined ? "" : ` (${reason})`}; this place takes ${keyList(place)}`
}

const expectedMapping = (place: Place, found: unknown): string =>
  `expected a mapping with the keys ${keyList(place)}, found ${describeValue(found)}`
