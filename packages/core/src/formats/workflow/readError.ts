import { describeValue } from "../document/describeValue.js"
import { asRecord, issueAt, placeOf, type Reading, readFields } from "./Reading.js"
import { readTemplate } from "./readTemplate.js"
import type { Scope } from "./Scope.js"
import type { Use } from "./Use.js"
import {
  type ErrorDefinition,
  type ErrorFilter,
  referenceErrorBase,
  standardErrorBase,
  standardErrors
} from "./WorkflowError.js"

const errorPlace = placeOf(["type", "status", "title", "detail", "instance", "kind", "because"], ["type", "status"])

const absoluteUri = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/

/** Reads an error object (a `raise.error` or an entry of `use.errors`): fields that may be expressions. */
export const readErrorObject = (
  reading: Reading,
  value: unknown,
  pointer: string,
  scope: Scope,
  name?: string
): ErrorDefinition | undefined => {
  const fields = readFields(reading, value, pointer, errorPlace)
  if (fields === undefined) return undefined
  const error = readTemplate(reading, fields, pointer, scope)
  const written = (key: string) => {
    const field = fields[key]
    return typeof field === "string" && field.trim().startsWith("${") ? undefined : field
  }
  const type = written("type")
  if (type !== undefined && (typeof type !== "string" || !absoluteUri.test(type))) {
    issueAt(
      reading,
      `${pointer}/type`,
      `an error type is an absolute URI such as https://example.com/errors/late, found ${describeValue(type)}`
    )
  }
  const status = written("status")
  if (status !== undefined && !Number.isInteger(status)) {
    issueAt(reading, `${pointer}/status`, `an error status is an integer such as 422, found ${describeValue(status)}`)
  }
  for (const key of ["title", "detail", "instance", "kind", "because"]) {
    const field = written(key)
    if (field !== undefined && typeof field !== "string") {
      issueAt(reading, `${pointer}/${key}`, `expected text, found ${describeValue(field)}`)
    }
  }
  return { ...(name === undefined ? {} : { name }), error }
}

/**
 * Reads `raise.error` (workflow-format.md §3.2): an inline error with `type` (an absolute URI) and `status` (an
 * integer) unless computed, or the name of an entry of `use.errors`, which must exist and is resolved here.
 */
export const readError = (
  reading: Reading,
  use: Use,
  value: unknown,
  pointer: string,
  scope: Scope
): ErrorDefinition | undefined => {
  if (typeof value !== "string") return readErrorObject(reading, value, pointer, scope)
  const entry = use.find(reading, "errors", value, pointer)
  return entry === undefined ? undefined : readErrorObject(reading, entry.value, entry.pointer, scope, entry.name)
}

const filterPlace = placeOf(["type", "status", "instance", "title", "details", "kind"])

/** The standard URI of a standard type written by short name or under the reference's base (decision W1). */
const standardType = (type: string): string => {
  const short = type.startsWith(referenceErrorBase) ? type.slice(referenceErrorBase.length) : type
  return (standardErrors as ReadonlyArray<string>).includes(short) ? `${standardErrorBase}${short}` : type
}

/**
 * Reads `catch.errors` (workflow-format.md §9.2, decisions W1, W7): `{ with: { type?, status?, instance?, title?,
 * details?, kind? } }`, literal values; a standard type's short name or reference URI becomes its standard URI.
 */
export const readErrorFilter = (reading: Reading, value: unknown, pointer: string): ErrorFilter | undefined => {
  const errors = readFields(reading, value, pointer, placeOf(["with"]))
  const filter =
    errors?.with === undefined ? undefined : readFields(reading, errors.with, `${pointer}/with`, filterPlace)
  if (filter === undefined) return undefined
  const read: Record<string, string | number> = {}
  for (const [key, field] of Object.entries(filter)) {
    const at = `${pointer}/with/${key}`
    if (key === "status" ? !Number.isInteger(field) : typeof field !== "string" || field === "") {
      issueAt(reading, at, `expected ${key === "status" ? "an integer" : "text"}, found ${describeValue(field)}`)
    } else if (typeof field === "string" && field.includes("${")) {
      issueAt(reading, at, "a catch filter is matched as written; write the value without an expression")
    } else read[key] = key === "type" ? standardType(field as string) : (field as string | number)
  }
  return asRecord(read) as ErrorFilter
}
