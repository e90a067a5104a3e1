import AjvModule, { type ErrorObject, type ValidateFunction } from "ajv"
import Ajv2020Module from "ajv/dist/2020.js"
import addFormatsModule from "ajv-formats"
import { Either } from "effect"
import { cutText } from "../cutText.js"
import { describeValue } from "../document/describeValue.js"
import { pointerSegment } from "../document/Place.js"
import { schemaDraft } from "./schemaDraft.js"
import { deeperThan, maxValueDepth } from "./valueDepth.js"

/** One issue of a value a schema refused: a JSON pointer and a sentence. */
export interface ValueIssue {
  readonly pointer: string
  readonly detail: string
}

/** Checks a value against a schema; the pointers start at `base` (`/input`, `/output`). */
export type ValidateValue = (value: unknown, base: string) => ReadonlyArray<ValueIssue>

/** How many issues a failed check lists before it counts the rest. */
export const shownValueIssues = 20

const options = { allErrors: true, strict: false, verbose: true, logger: false } as const
const addFormats = addFormatsModule.default
const compilers = {
  "2020-12": addFormats(new Ajv2020Module.default(options)),
  "draft-07": addFormats(new AjvModule.default(options))
}
const compiled = new Map<string, ValidateFunction>()
const maxCompiled = 256

const words = (error: ErrorObject, base: string): ValueIssue => {
  const at = `${base}${error.instancePath}`
  const found = `, found ${describeValue(error.data)}`
  switch (error.keyword) {
    case "required": {
      const pointer = `${at}/${pointerSegment(error.params.missingProperty)}`
      return { pointer, detail: `${pointer} is missing; it is required.` }
    }
    case "additionalProperties": {
      const pointer = `${at}/${pointerSegment(error.params.additionalProperty)}`
      return { pointer, detail: `${pointer} is not a field this place takes.` }
    }
    case "type":
      return { pointer: at, detail: `${at || "the value"} must be ${error.params.type}${found}.` }
    case "enum":
      return {
        pointer: at,
        detail: `${at || "the value"} must be one of ${(error.params.allowedValues as ReadonlyArray<unknown>).map((value) => JSON.stringify(value)).join(", ")}${found}.`
      }
    case "const":
      return {
        pointer: at,
        detail: `${at || "the value"} must be ${JSON.stringify(error.params.allowedValue)}${found}.`
      }
    default:
      return { pointer: at, detail: `${at || "the value"} ${error.message ?? "does not fit the schema"}.` }
  }
}

/**
 * Compiles a schema a document holds (checked with `checkSchema` first) into a check of values: draft 2020-12
 * with Ajv2020, draft-07 with Ajv. Values deeper than 512 levels are refused before the schema sees them;
 * each distinct issue is listed once, at most 20, then a line that counts the rest; texts are cut at 1,024 bytes.
 * Left: the words of a schema Ajv cannot compile.
 */
export const schemaValidator = (schema: unknown): Either.Either<ValidateValue, string> => {
  const key = JSON.stringify(schema)
  let validate = compiled.get(key)
  if (validate === undefined) {
    const draft = schemaDraft(schema)
    if (draft === undefined) return Either.left("only JSON Schema draft 2020-12 and draft-07 are supported")
    try {
      validate = compilers[draft].compile(schema as object)
    } catch (error) {
      return Either.left(`the schema cannot be compiled: ${error instanceof Error ? error.message : String(error)}`)
    }
    if (compiled.size >= maxCompiled) compiled.clear()
    compiled.set(key, validate)
  }
  const check = validate
  return Either.right((value, base) => {
    if (deeperThan(value, maxValueDepth)) {
      return [{ pointer: base, detail: `${base} nests deeper than ${maxValueDepth} levels.` }]
    }
    if (check(value)) return []
    const seen = new Set<string>()
    const issues = (check.errors ?? [])
      .map((error) => words(error, base))
      .filter((issue) => {
        const known = seen.has(`${issue.pointer} ${issue.detail}`)
        seen.add(`${issue.pointer} ${issue.detail}`)
        return !known
      })
      .map((issue) => ({ pointer: cutText(issue.pointer), detail: cutText(issue.detail) }))
    if (issues.length <= shownValueIssues) return issues
    const more = issues.length - shownValueIssues
    return [
      ...issues.slice(0, shownValueIssues),
      { pointer: base, detail: `${more} more ${more === 1 ? "issue is" : "issues are"} not shown.` }
    ]
  })
}
