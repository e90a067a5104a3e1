import { utf8Bytes } from "../../domain/utf8Bytes.js"
import { describeValue } from "../document/describeValue.js"

/** How one property of an answer is taken from a reply (function-formats.md §3.5). */
export type ReplyMapping =
  /** The reply's first word, as one of the values `words` maps it to (each value maps to itself too). */
  | { readonly from: "word"; readonly words: Readonly<Record<string, ReadonlyArray<string>>> }
  /** What follows the first word, trimmed; absent when nothing does. */
  | { readonly from: "rest" }
  /** The whole reply, trimmed. */
  | { readonly from: "text" }

/** A reply rule as a request records it: each top-level string property of the answer and how a reply fills it. */
export type ReplyRule = Readonly<Record<string, ReplyMapping>>

/** One problem of a written rule: the pointer under `/reply` and the words. */
export interface ReplyRuleIssue {
  readonly pointer: string
  readonly message: string
}

/** The rule's bounds (§3.9): 16 values, 16 words per value, 64 bytes per word. */
export const replyRuleBounds = { values: 16, wordsPerValue: 16, wordBytes: 64 }

const escape = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1")

/** The answer schema's top-level property of a name, when it is a string one; with its `enum` of texts, if any. */
const stringProperty = (schema: unknown, name: string): { readonly values?: ReadonlyArray<string> } | undefined => {
  const property = (schema as { properties?: Record<string, unknown> } | null)?.properties?.[name] as
    | { type?: unknown; enum?: unknown }
    | undefined
  if (property === undefined || property.type !== "string") return undefined
  return Array.isArray(property.enum) && property.enum.every((value) => typeof value === "string")
    ? { values: property.enum as ReadonlyArray<string> }
    : {}
}

/**
 * The rule a request takes when the document writes none (§3.5): an answer whose required properties are exactly
 * one string property takes the reply's first word as it when the property has an `enum`, else the whole text; any
 * other answer takes no reply (null).
 */
export const defaultReplyRule = (schema: unknown): ReplyRule | null => {
  const required = (schema as { required?: unknown } | null)?.required
  if (!Array.isArray(required) || required.length !== 1 || typeof required[0] !== "string") return null
  const name = required[0]
  const property = stringProperty(schema, name)
  if (property === undefined) return null
  return property.values === undefined
    ? { [name]: { from: "text" } }
    : { [name]: { from: "word", words: Object.fromEntries(property.values.map((value) => [value, []])) } }
}

/**
 * Reads a written reply rule against the answer schema (§3.5): a mapping from top-level string properties of the
 * answer to `word` (the property needs an `enum`), `rest`, `text` or `{ from: word, words: { <value>: [synonyms] } }`
 * whose values are the property's `enum` values; at most 16 values, 16 words per value and 64 bytes per word, and a
 * word (compared lowercased) means one value only. The rule as the request records it, `word` spelled out; or the
 * issues.
 */
export const readReplyRule = (
  written: unknown,
  schema: unknown
): { readonly rule?: ReplyRule; readonly issues: ReadonlyArray<ReplyRuleIssue> } => {
  const issues: Array<ReplyRuleIssue> = []
  if (typeof written !== "object" || written === null || Array.isArray(written) || Object.keys(written).length === 0)
    return {
      issues: [
        {
          pointer: "/reply",
          message: `expected a mapping from properties of the answer to word, rest, text or { from: word, words }, found ${describeValue(written)}`
        }
      ]
    }
  const rule: Record<string, ReplyMapping> = {}
  for (const [name, how] of Object.entries(written)) {
    const at = `/reply/${escape(name)}`
    const property = stringProperty(schema, name)
    if (property === undefined) {
      issues.push({ pointer: at, message: `${name} is not a top-level string property of output.schema` })
      continue
    }
    if (how === "rest" || how === "text") {
      rule[name] = { from: how }
      continue
    }
    const words =
      how === "word"
        ? {}
        : typeof how === "object" && how !== null && (how as { from?: unknown }).from === "word"
          ? (how as { words?: unknown }).words
          : undefined
    if (words === undefined || typeof words !== "object" || words === null || Array.isArray(words)) {
      issues.push({
        pointer: at,
        message: `expected word, rest, text or { from: word, words: { <value>: [synonyms] } }, found ${describeValue(how)}`
      })
      continue
    }
    if (property.values === undefined) {
      issues.push({
        pointer: at,
        message: `a reply's word fills ${name} only when its property lists its values in enum`
      })
      continue
    }
    const mapped: Record<string, ReadonlyArray<string>> = Object.fromEntries(
      property.values.map((value) => [value, []])
    )
    for (const [value, synonyms] of Object.entries(words as Record<string, unknown>)) {
      const valueAt = `${at}/words/${escape(value)}`
      if (!property.values.includes(value))
        issues.push({
          pointer: valueAt,
          message: `${value} is not one of the values of ${name}: ${property.values.join(", ")}`
        })
      else if (!Array.isArray(synonyms) || synonyms.some((word) => typeof word !== "string" || word.trim() === ""))
        issues.push({ pointer: valueAt, message: `expected a list of words, found ${describeValue(synonyms)}` })
      else mapped[value] = synonyms as ReadonlyArray<string>
    }
    const values = Object.entries(mapped)
    if (values.length > replyRuleBounds.values)
      issues.push({ pointer: at, message: `the rule maps ${values.length} values; at most ${replyRuleBounds.values}` })
    const meaning = new Map<string, string>()
    for (const [value, synonyms] of values) {
      if (synonyms.length > replyRuleBounds.wordsPerValue)
        issues.push({
          pointer: `${at}/words/${escape(value)}`,
          message: `${synonyms.length} words; a value takes at most ${replyRuleBounds.wordsPerValue}`
        })
      for (const word of [value, ...synonyms]) {
        const key = word.toLowerCase()
        if (utf8Bytes(word) > replyRuleBounds.wordBytes)
          issues.push({
            pointer: `${at}/words/${escape(value)}`,
            message: `the word ${JSON.stringify(word.slice(0, 80))} holds more than ${replyRuleBounds.wordBytes} bytes`
          })
        const other = meaning.get(key)
        if (other !== undefined && other !== value)
          issues.push({
            pointer: `${at}/words/${escape(value)}`,
            message: `the word ${JSON.stringify(word)} already means ${other}; a word means one value only`
          })
        meaning.set(key, value)
      }
    }
    rule[name] = { from: "word", words: mapped }
  }
  return issues.length > 0 ? { issues } : { rule, issues }
}
