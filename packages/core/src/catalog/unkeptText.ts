import { invalidInput, type Rejection } from "../domain/Rejection.js"
import { pointerOf } from "./decodeInput.js"

/** U+0000, a high surrogate with no low one after it, or a low surrogate with no high one before it. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0000 is the very character this refuses
const unkeptCharacter = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether a text can be kept by every store: no U+0000 and no lone surrogate (PostgreSQL's jsonb refuses both). */
const keepable = (text: string): boolean => !unkeptCharacter.test(text)

/** The path of the first text (a value or a key) in a JSON value that no store can keep, if any. */
const firstUnkept = (value: unknown, path: Array<string | number>): Array<string | number> | undefined => {
  if (typeof value === "string") return keepable(value) ? undefined : path
  if (typeof value !== "object" || value === null) return undefined
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = firstUnkept(value[index], [...path, index])
      if (found !== undefined) return found
    }
    return undefined
  }
  for (const [key, member] of Object.entries(value)) {
    if (!keepable(key)) return [...path, key]
    const found = firstUnkept(member, [...path, key])
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * Refuses an input holding a text no store can keep (ADR 0020): the character U+0000 or a lone surrogate, in a
 * value or a key, which the memory store would keep and PostgreSQL's jsonb refuses — so every store answers the
 * same `invalid_input`, at the text's pointer, and records nothing.
 */
export const refuseUnkeptText = (input: unknown): Rejection | undefined => {
  const path = firstUnkept(input, [])
  if (path === undefined) return undefined
  return invalidInput([
    {
      pointer: pointerOf(path),
      detail:
        "This text holds the character U+0000 or a lone surrogate, which the ledger cannot keep; remove it or escape it in the text."
    }
  ])
}
