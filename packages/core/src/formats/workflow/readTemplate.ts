// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { describeValue } from "../document/describeValue.js"
import { pointerSegment } from "../document/Place.js"
import { isPartialExpression, wrappedCode } from "./Expression.js"
import { asRecord, issueAt, type Reading } from "./Reading.js"
import { readExpression } from "./readExpression.js"
import type { Scope } from "./Scope.js"
import type { Template } from "./Template.js"

/** The words of a string that holds `${` without being one whole expression (decision W10). */
export const partialWords =
  "this text holds ${ without being one whole expression, and only a whole string ${ … } is evaluated; to mix " +
  "text and values, write one expression with a template literal: ${ `Invoice ${$data.number} is due` }"

/**
 * Reads a value whose strings may be expressions (workflow-format.md §6.1): a whole-string `${ … }` is an
 * expression in `scope`, any other string holding `${` is refused (decision W10), lists and mappings are read
 * part by part, and a part without expressions stays one literal.
 */
export const readTemplate = (reading: Reading, value: unknown, pointer: string, scope: Scope): Template => {
  if (typeof value === "string") {
    const wrapped = wrappedCode(value)
    if (wrapped !== undefined) {
      return (
        readExpression(reading, { pointer, text: value, index: wrapped.index }, wrapped.code, scope) ?? {
          _tag: "Literal",
          value
        }
      )
    }
    if (isPartialExpression(value)) issueAt(reading, pointer, partialWords)
    return { _tag: "Literal", value }
  }
  if (Array.isArray(value)) {
    const items = value.map((item, index) => readTemplate(reading, item, `${pointer}/${index}`, scope))
    return items.every((item) => item._tag === "Literal") ? { _tag: "Literal", value } : { _tag: "List", items }
  }
  const record = asRecord(value)
  if (record === undefined) return { _tag: "Literal", value }
  const entries = Object.entries(record).map(
    ([key, item]) => [key, readTemplate(reading, item, `${pointer}/${pointerSegment(key)}`, scope)] as const
  )
  return entries.every(([, item]) => item._tag === "Literal")
    ? { _tag: "Literal", value }
    : { _tag: "Mapping", entries }
}

/**
 * Reads a place that is an expression even without `${ }` (workflow-format.md §6.1): `if`, `when`, `exceptWhen`,
 * `for.in`, `while`. A `${ }` wrapper is accepted. `undefined` (and an issue) when it is no text or is refused.
 */
export const readCondition = (reading: Reading, value: unknown, pointer: string, scope: Scope) => {
  if (typeof value !== "string") {
    issueAt(reading, pointer, `expected an expression such as $data.ready, found ${describeValue(value)}`)
    return undefined
  }
  const wrapped = wrappedCode(value) ?? { code: value, index: 0 }
  return readExpression(reading, { pointer, text: value, index: wrapped.index }, wrapped.code, scope)
}

/**
 * Reads `input.from`, `output.as` or `export.as` (workflow-format.md §5.1): a string is one expression, with or
 * without `${ }`; a mapping is a template. `undefined` (and an issue) for anything else.
 */
export const readTransform = (
  reading: Reading,
  value: unknown,
  pointer: string,
  scope: Scope
): Template | undefined => {
  if (typeof value === "string") return readCondition(reading, value, pointer, scope)
  if (asRecord(value) !== undefined) return readTemplate(reading, value, pointer, scope)
  issueAt(reading, pointer, `expected an expression or a mapping, found ${describeValue(value)}`)
  return undefined
}
