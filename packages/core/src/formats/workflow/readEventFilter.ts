import { describeValue } from "../document/describeValue.js"
import { pointerSegment } from "../document/Place.js"
import type { EventFilter, FilterValue } from "./EventFilter.js"
import { isPartialExpression, wrappedCode } from "./Expression.js"
import { asRecord, issueAt, placeOf, type Reading, readFields } from "./Reading.js"
import { readExpression } from "./readExpression.js"
import { partialWords } from "./readTemplate.js"
import { filterScope } from "./Scope.js"

/** Whether a literal holds a string with `${` somewhere inside it. */
const holdsExpression = (value: unknown): boolean =>
  typeof value === "string"
    ? value.includes("${")
    : typeof value === "object" && value !== null && Object.values(value).some(holdsExpression)

/** Reads one attribute's expected value: a literal, or one whole expression over the attribute as `$data`. */
const readFilterValue = (reading: Reading, value: unknown, pointer: string): FilterValue | undefined => {
  if (typeof value === "string") {
    const wrapped = wrappedCode(value)
    if (wrapped !== undefined) {
      return readExpression(reading, { pointer, text: value, index: wrapped.index }, wrapped.code, filterScope)
    }
    if (isPartialExpression(value)) {
      issueAt(reading, pointer, partialWords)
      return undefined
    }
  } else if (holdsExpression(value)) {
    issueAt(reading, pointer, "in a filter an expression is the whole value of an attribute, never a part of it")
    return undefined
  }
  return { _tag: "Literal", value }
}

/** The attributes a trigger filter may test: matched before any run exists (workflow-format.md §12.2). */
const triggerAttributes = ["type", "source", "subject", "data"]

/**
 * Reads an event filter `{ with: { … } }` (workflow-format.md §8.2). A listen's filter may test any attribute
 * (`correlate` is refused); a trigger's (§12.2) needs a literal `type`, may test `source` and `subject` literally
 * and `data` either way, and nothing else.
 */
export const readEventFilter = (
  reading: Reading,
  value: unknown,
  pointer: string,
  forTrigger: boolean
): EventFilter | undefined => {
  const fields = readFields(
    reading,
    value,
    pointer,
    placeOf(["with"], ["with"], forTrigger ? {} : { correlate: "correlating events is not supported" })
  )
  if (fields?.with === undefined) return undefined
  const at = `${pointer}/with`
  const attributes = forTrigger
    ? readFields(reading, fields.with, at, placeOf(triggerAttributes, ["type"]))
    : asRecord(fields.with)
  if (attributes === undefined) {
    if (!forTrigger) issueAt(reading, at, `expected a mapping of event attributes, found ${describeValue(fields.with)}`)
    return undefined
  }
  if (Object.keys(attributes).length === 0) {
    issueAt(reading, at, "a filter names one or more attributes, such as type")
    return undefined
  }
  const read: Array<readonly [string, FilterValue]> = []
  for (const [name, expected] of Object.entries(attributes)) {
    if (forTrigger && !triggerAttributes.includes(name)) continue
    const valueAt = `${at}/${pointerSegment(name)}`
    const literalOnly = forTrigger && name !== "data"
    if (literalOnly && (typeof expected !== "string" || expected === "" || expected.includes("${"))) {
      issueAt(
        reading,
        valueAt,
        `a trigger filter's ${name} is literal text, matched before any run exists; found ${describeValue(expected)}`
      )
      continue
    }
    const filterValue = readFilterValue(reading, expected, valueAt)
    if (filterValue !== undefined) read.push([name, filterValue])
  }
  return { reference: pointer, attributes: read }
}
