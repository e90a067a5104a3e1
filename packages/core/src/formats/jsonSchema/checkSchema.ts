import { utf8Bytes } from "../../domain/utf8Bytes.js"
import { pointerOf } from "../document/Place.js"
import { type SchemaDraft, schemaDraft } from "./schemaDraft.js"
import { deeperThan } from "./valueDepth.js"

/** One rule a schema breaks, at a pointer relative to the schema's root. */
export interface SchemaIssue {
  readonly pointer: string
  readonly message: string
}

/** Bounds of a schema in a document (function-formats.md §1.4). */
export const schemaBounds = { bytes: 65_536, depth: 64, enumValues: 1_000 } as const

const refused: ReadonlyMap<string, string> = new Map([
  ["pattern", "regular expressions can backtrack without end"],
  ["patternProperties", "regular expressions can backtrack without end"],
  ["if", "conditional schemas are not supported"],
  ["then", "conditional schemas are not supported"],
  ["else", "conditional schemas are not supported"],
  ["contains", "contains is not supported"],
  ["minContains", "contains is not supported"],
  ["maxContains", "contains is not supported"],
  ["dependentRequired", "dependencies between properties are not supported"],
  ["dependentSchemas", "dependencies between properties are not supported"],
  ["dependencies", "dependencies between properties are not supported"],
  ["unevaluatedItems", "unevaluated keywords are not supported"],
  ["unevaluatedProperties", "unevaluated keywords are not supported"],
  ["additionalItems", "use prefixItems and items"],
  ["$dynamicRef", "dynamic references are not supported"],
  ["$dynamicAnchor", "dynamic references are not supported"],
  ["$recursiveRef", "dynamic references are not supported"],
  ["$recursiveAnchor", "dynamic references are not supported"],
  ["$id", "schemas here have no identifiers; use $defs and $ref"],
  ["$anchor", "use $defs and $ref"]
])

/** Keywords whose value is one schema, a list of schemas, or a mapping of names to schemas. */
const oneSchema = new Set(["additionalProperties", "propertyNames", "items", "not"])
const schemaList = new Set(["allOf", "anyOf", "oneOf", "prefixItems"])
const schemaMap = new Set(["properties", "$defs", "definitions"])
const annotations = new Set([
  "$schema",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "format",
  "contentEncoding",
  "contentMediaType",
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxProperties",
  "minProperties",
  "required",
  "$ref"
])

const localRef = /^#\/(\$defs|definitions)\/([^/]+)$/

const isPrimitive = (value: unknown) =>
  value === null || typeof value === "string" || typeof value === "boolean" || typeof value === "number"

const unescape = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~")

/**
 * The rules of function-formats.md §1.4 a schema breaks: size and depth, refused and unknown keywords, `$ref`
 * only to the schema's own `$defs`/`definitions`, `not` only as `{}`, `enum`/`const` of plain values, a
 * schema-valued `additionalProperties` only beside `properties`, and no reference cycle without a property or
 * an item between. Draft-agnostic beyond `items` as a list in draft-07.
 */
export const checkSchema = (schema: unknown): ReadonlyArray<SchemaIssue> => {
  const issues: Array<SchemaIssue> = []
  const draft = schemaDraft(schema)
  if (draft === undefined) {
    return [{ pointer: "/$schema", message: "only JSON Schema draft 2020-12 and draft-07 are supported" }]
  }
  const bytes = utf8Bytes(JSON.stringify(schema) ?? "")
  if (bytes > schemaBounds.bytes) {
    return [{ pointer: "", message: `the schema holds ${bytes} bytes as JSON; at most ${schemaBounds.bytes}` }]
  }
  if (deeperThan(schema, schemaBounds.depth)) {
    return [{ pointer: "", message: `the schema nests deeper than ${schemaBounds.depth} levels` }]
  }
  const root = schema as Record<string, unknown>
  const defined = (kind: string, name: string) => {
    const defs = root[kind]
    return typeof defs === "object" && defs !== null && Object.hasOwn(defs, name)
  }
  const walk = (node: unknown, path: ReadonlyArray<string | number>) => {
    const pointer = pointerOf(path)
    if (typeof node === "boolean") return
    if (typeof node !== "object" || node === null || Array.isArray(node)) {
      issues.push({ pointer, message: "a schema must be a mapping or true/false" })
      return
    }
    const record = node as Record<string, unknown>
    for (const [keyword, value] of Object.entries(record)) {
      const at = pointerOf([...path, keyword])
      if (refused.has(keyword))
        issues.push({ pointer: at, message: `${keyword} is not allowed: ${refused.get(keyword)}` })
      else if (oneSchema.has(keyword)) {
        if (keyword === "items" && Array.isArray(value) && draft === "draft-07") {
          value.forEach((item, index) => {
            walk(item, [...path, keyword, index])
          })
        } else walk(value, [...path, keyword])
      } else if (schemaList.has(keyword)) {
        if (Array.isArray(value))
          value.forEach((item, index) => {
            walk(item, [...path, keyword, index])
          })
        else issues.push({ pointer: at, message: `${keyword} must be a list of schemas` })
      } else if (schemaMap.has(keyword)) {
        if (typeof value === "object" && value !== null && !Array.isArray(value)) {
          for (const [name, item] of Object.entries(value)) walk(item, [...path, keyword, name])
        } else issues.push({ pointer: at, message: `${keyword} must be a mapping of names to schemas` })
      } else if (!annotations.has(keyword)) issues.push({ pointer: at, message: `unknown keyword ${keyword}` })
    }
    if ("$ref" in record) {
      const match = typeof record.$ref === "string" ? localRef.exec(record.$ref) : null
      if (match === null) {
        issues.push({
          pointer: pointerOf([...path, "$ref"]),
          message: "$ref may only name #/$defs/<name> or #/definitions/<name>"
        })
      } else if (!defined(match[1]!, unescape(match[2]!))) {
        issues.push({
          pointer: pointerOf([...path, "$ref"]),
          message: `$ref names ${record.$ref}, which the schema does not define`
        })
      }
    }
    if (
      "not" in record &&
      !(typeof record.not === "object" && record.not !== null && Object.keys(record.not).length === 0)
    ) {
      issues.push({ pointer: pointerOf([...path, "not"]), message: "not is only allowed as {}" })
    }
    if ("enum" in record) {
      if (!Array.isArray(record.enum) || !record.enum.every(isPrimitive)) {
        issues.push({
          pointer: pointerOf([...path, "enum"]),
          message: "enum must list strings, numbers, booleans or null"
        })
      } else if (record.enum.length > schemaBounds.enumValues) {
        issues.push({
          pointer: pointerOf([...path, "enum"]),
          message: `enum lists ${record.enum.length} values; at most ${schemaBounds.enumValues}`
        })
      }
    }
    if ("const" in record && !isPrimitive(record.const)) {
      issues.push({
        pointer: pointerOf([...path, "const"]),
        message: "const must be a string, number, boolean or null"
      })
    }
    if (
      typeof record.additionalProperties === "object" &&
      record.additionalProperties !== null &&
      !("properties" in record)
    ) {
      issues.push({
        pointer: pointerOf([...path, "additionalProperties"]),
        message: "a schema-valued additionalProperties needs properties beside it"
      })
    }
  }
  walk(schema, [])
  if (issues.length === 0) issues.push(...referenceCycles(root, draft))
  return issues
}

/** The definitions a schema reaches without passing a property or an item: through $ref and the combinators. */
const directRefs = (node: unknown): ReadonlyArray<string> => {
  if (typeof node !== "object" || node === null) return []
  const record = node as Record<string, unknown>
  const own = typeof record.$ref === "string" ? [record.$ref] : []
  const nested = ["allOf", "anyOf", "oneOf"].flatMap((keyword) =>
    Array.isArray(record[keyword]) ? (record[keyword] as ReadonlyArray<unknown>).flatMap(directRefs) : []
  )
  return [...own, ...nested]
}

/** A cycle of definitions that refer to each other with no property or item between. */
const referenceCycles = (root: Record<string, unknown>, draft: SchemaDraft): ReadonlyArray<SchemaIssue> => {
  const kinds = draft === "draft-07" ? ["definitions", "$defs"] : ["$defs", "definitions"]
  const nodes = new Map<string, unknown>()
  for (const kind of kinds) {
    const defs = root[kind]
    if (typeof defs !== "object" || defs === null) continue
    for (const [name, schema] of Object.entries(defs))
      nodes.set(`#/${kind}/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`, schema)
  }
  const state = new Map<string, "open" | "done">()
  const visit = (ref: string): string | undefined => {
    if (state.get(ref) === "done") return undefined
    if (state.get(ref) === "open") return ref
    state.set(ref, "open")
    for (const next of directRefs(nodes.get(ref))) {
      const found = nodes.has(next) ? visit(next) : undefined
      if (found !== undefined) return found
    }
    state.set(ref, "done")
    return undefined
  }
  const start = [...directRefs(root), ...nodes.keys()]
  for (const ref of start) {
    const found = nodes.has(ref) ? visit(ref) : undefined
    if (found !== undefined) {
      return [{ pointer: found.slice(1), message: `${found} refers back to itself with no property or item between` }]
    }
  }
  return []
}
