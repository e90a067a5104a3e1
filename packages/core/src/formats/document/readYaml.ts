import { Either } from "effect"
import { isAlias, isMap, isScalar, isSeq, type Node, parseDocument } from "yaml"
import type { SourceIssue } from "../DefinitionFormat.js"
import { expectedMappingWords, type Place, pointerOf, requiredKeyWords, unknownKeyWords } from "./Place.js"
import { type Position, sourceText } from "./SourceText.js"

/** What one YAML reading covers: a stretch of a source, the keys it takes, and its nesting bound. */
export interface YamlStretch {
  /** Where the YAML starts and ends in the source, as UTF-16 offsets. */
  readonly start: number
  readonly end: number
  /** The keys the root takes, or `"value"` when the caller checks the keys itself. */
  readonly place: Place | "value"
  /** The deepest nesting of mappings and lists, the root counting 1. */
  readonly maxDepth: number
  /** The words of the one issue at the first value nested deeper than `maxDepth`. */
  readonly tooDeep: string
}

/** A stretch of YAML as read: its value, the issues of the rules every document shares, and where things are. */
export interface YamlRead {
  /** Whether the stretch holds no value at all (nothing, or a lone null). */
  readonly empty: boolean
  /** The value as JSON-like data (mappings as objects, keys as strings). */
  readonly value: unknown
  /** Issues that do not stop the reading: unknown keys, anchors, tags, repeated keys, nesting too deep… */
  readonly issues: ReadonlyArray<SourceIssue>
  /** Whether some value nested deeper than `maxDepth`. */
  readonly tooDeep: boolean
  /** An issue at the value a pointer names, or at its nearest ancestor that exists. */
  readonly issueAt: (pointer: string, message: string) => SourceIssue
  /** An issue at the key of the mapping entry a pointer names, or at its value when it has no key. */
  readonly keyIssueAt: (pointer: string, message: string) => SourceIssue
  /** The UTF-16 offsets in the source where the scalar a pointer names starts and ends, if it is one. */
  readonly scalarRange: (pointer: string) => readonly [number, number] | undefined
  /** The line and code-point column of a UTF-16 offset of the source. */
  readonly positionAt: (offset: number) => Position
}

const issue = (position: Position, pointer: string, message: string): SourceIssue => ({ ...position, pointer, message })

/**
 * Reads a stretch of a source as one YAML 1.2 document with the core schema, refusing anchors, aliases, tags,
 * repeated keys, non-string keys, non-finite numbers, nesting past `maxDepth` and every key `place` does not list.
 * Left: the YAML cannot be read, or holds an alias. Right: the value, with the issues it has.
 */
export const readYaml = (source: string, stretch: YamlStretch): Either.Either<YamlRead, ReadonlyArray<SourceIssue>> => {
  const { start, end, place } = stretch
  const text = sourceText(source)
  const at = (offset: number) => text.positionAt(start + offset)
  /** The offset of the `&` or `!` that begins a node's anchor or tag, on the node's line before it. */
  const markBefore = (offset: number, mark: string) => {
    let found = source.lastIndexOf(mark, start + offset)
    while (found > start && source[found - 1] === mark) found--
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
  const empty = doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)
  const issues: Array<SourceIssue> = []
  const valueAt = new Map<string, number>()
  const keyAt = new Map<string, number>()
  const scalars = new Map<string, readonly [number, number]>()
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
    if ((isMap(node) || isSeq(node)) && depth > stretch.maxDepth) {
      if (!tooDeep) issues.push(issue(at(offset), pointer, stretch.tooDeep))
      tooDeep = true
      return
    }
    if (isScalar(node)) {
      scalars.set(pointer, [start + offset, start + (node.range?.[1] ?? offset)])
      if (typeof node.value === "number" && !Number.isFinite(node.value)) {
        issues.push(issue(at(offset), pointer, "non-finite numbers (.inf, .nan) are not allowed"))
      }
      if (here !== "value") issues.push(issue(at(offset), pointer, expectedMappingWords(here, node.toJSON())))
      return
    }
    if (isSeq(node)) {
      if (here !== "value") issues.push(issue(at(offset), pointer, expectedMappingWords(here, [])))
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
      keyAt.set(keyPointer, keyOffset)
      if (here !== "value" && !(key in here.keys)) {
        issues.push(issue(at(keyOffset), keyPointer, unknownKeyWords(key, here)))
        continue
      }
      walk(pair.value as Node | null, [...path, key], depth + 1, here === "value" ? "value" : here.keys[key]!)
    }
    if (here !== "value") {
      for (const key of here.required ?? []) {
        if (!seen.has(key)) issues.push(issue(at(offset), pointer, requiredKeyWords(key)))
      }
    }
  }
  walk(doc.contents as Node, [], 1, place)
  if (hasAlias) return Either.left(issues)
  const issueAt = (pointer: string, message: string): SourceIssue => {
    let nearest = pointer
    while (nearest !== "" && !valueAt.has(nearest)) nearest = nearest.slice(0, nearest.lastIndexOf("/"))
    return issue(at(valueAt.get(nearest) ?? 0), pointer, message)
  }
  return Either.right({
    empty,
    value: doc.toJS() as unknown,
    issues,
    tooDeep,
    issueAt,
    keyIssueAt: (pointer, message) => {
      const offset = keyAt.get(pointer)
      return offset === undefined ? issueAt(pointer, message) : issue(at(offset), pointer, message)
    },
    scalarRange: (pointer) => scalars.get(pointer),
    positionAt: text.positionAt
  })
}
