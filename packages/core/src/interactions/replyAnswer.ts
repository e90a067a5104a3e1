import { Either } from "effect"
import type { InputIssue } from "../domain/Rejection.js"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import type { ReplyRule } from "../formats/interaction/replyRule.js"
import { schemaValidator } from "../formats/jsonSchema/SchemaValidator.js"
import type { ReplyRefusal } from "./interactionFacts.js"

/** The most bytes of a reply's words (function-formats.md §3.9). */
export const replyWordsBound = 8_192

/** What a reply makes of a request: its answer, or why it is refused, in words that never quote the reply. */
export type ReplyOutcome =
  | { readonly _tag: "Answer"; readonly answer: Record<string, string> }
  | {
      readonly _tag: "Refused"
      readonly because: ReplyRefusal
      readonly detail: string
      readonly issues?: ReadonlyArray<InputIssue>
    }

/** Punctuation at the ends of a word, stripped before it is compared. */
const endPunctuation = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu

/**
 * Maps a reply's words to an answer by the request's recorded rule, and checks it against the recorded answer
 * schema (§3.5): `word` is the first word, lowercased and stripped of punctuation at its ends, as the value it or a
 * synonym names; `rest` what follows it, trimmed (left out when nothing does); `text` the whole reply, trimmed.
 * Words over 8 KiB are `too_long`; no rule, or a first word that names no value, `not_an_answer`; an answer the
 * schema refuses, `invalid`, with its issues under `/answer`.
 */
export const replyAnswer = (rule: ReplyRule | null, text: string, schema: unknown): ReplyOutcome => {
  if (utf8Bytes(text) > replyWordsBound)
    return { _tag: "Refused", because: "too_long", detail: `The reply holds more than ${replyWordsBound} bytes.` }
  if (rule === null)
    return {
      _tag: "Refused",
      because: "not_an_answer",
      detail: "The request takes no reply: its answer has no reply rule."
    }
  const trimmed = text.trim()
  const [first = "", ...others] = trimmed.split(/\s+/)
  const word = first.replace(endPunctuation, "").toLowerCase()
  const rest = trimmed.slice(first.length).trim()
  const answer: Record<string, string> = {}
  // In the order of their names: a rule read back from PostgreSQL's jsonb has its keys in another order than written.
  for (const [property, how] of Object.entries(rule).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (how.from === "text") answer[property] = trimmed
    else if (how.from === "rest") {
      if (rest !== "" && others.length > 0) answer[property] = rest
    } else {
      const value = Object.entries(how.words).find(
        ([named, synonyms]) =>
          named.toLowerCase() === word || synonyms.some((synonym) => synonym.toLowerCase() === word)
      )?.[0]
      if (value === undefined)
        return {
          _tag: "Refused",
          because: "not_an_answer",
          detail: `The reply's first word names none of the values of ${property}: ${Object.keys(how.words).sort().join(", ")}.`
        }
      answer[property] = value
    }
  }
  const validate = schemaValidator(schema)
  const issues = Either.isLeft(validate) ? [] : validate.right(answer, "/answer")
  return issues.length > 0
    ? {
        _tag: "Refused",
        because: "invalid",
        detail: "The answer the reply makes does not match the answer schema.",
        issues
      }
    : { _tag: "Answer", answer }
}
