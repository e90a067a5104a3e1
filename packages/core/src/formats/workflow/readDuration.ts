import { Either } from "effect"
import { type Duration, durationMilliseconds } from "./Duration.js"
import { isPartialExpression, wrappedCode } from "./Expression.js"
import { issueAt, type Reading } from "./Reading.js"
import { readExpression } from "./readExpression.js"
import { partialWords } from "./readTemplate.js"
import type { Scope } from "./Scope.js"

const days = (milliseconds: number) => `${Math.round((milliseconds / 86_400_000) * 100) / 100} days`

/**
 * Reads a duration (workflow-format.md §11): a whole-string expression in `scope`, or a written duration no
 * longer than the longest run. `undefined` (and an issue) when refused.
 */
export const readDuration = (reading: Reading, value: unknown, pointer: string, scope: Scope): Duration | undefined => {
  if (typeof value === "string") {
    const wrapped = wrappedCode(value)
    if (wrapped !== undefined) {
      return readExpression(reading, { pointer, text: value, index: wrapped.index }, wrapped.code, scope)
    }
    if (isPartialExpression(value)) {
      issueAt(reading, pointer, partialWords)
      return undefined
    }
  }
  const milliseconds = durationMilliseconds(value)
  if (Either.isLeft(milliseconds)) {
    issueAt(reading, pointer, milliseconds.left)
    return undefined
  }
  if (milliseconds.right > reading.maxRunMilliseconds) {
    issueAt(
      reading,
      pointer,
      `this duration is ${days(milliseconds.right)}, longer than the longest run of ${days(reading.maxRunMilliseconds)}`
    )
    return undefined
  }
  return { _tag: "Fixed", milliseconds: milliseconds.right }
}
