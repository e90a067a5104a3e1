import { Either, ParseResult, Schema } from "effect"
import { invalidInput, type Rejection } from "../domain/Rejection.js"

/** Escapes one segment of a JSON pointer (RFC 6901). */
export const pointerSegment = (segment: PropertyKey): string =>
  String(segment).replaceAll("~", "~0").replaceAll("/", "~1")

/** A JSON pointer from a path of keys and indexes, under an optional prefix. */
export const pointerOf = (path: ReadonlyArray<PropertyKey>, prefix = ""): string =>
  prefix + path.map((segment) => `/${pointerSegment(segment)}`).join("")

/**
 * Whether one issue makes another redundant: an optional field's union reports "expected undefined" beside the
 * real issue, at the same pointer or above a deeper one, which says more.
 */
const supersedes = (
  other: { pointer: string; detail: string },
  otherIndex: number,
  issue: { pointer: string; detail: string },
  index: number
): boolean =>
  otherIndex !== index &&
  (other.pointer.startsWith(`${issue.pointer}/`) ||
    (other.pointer === issue.pointer &&
      /Expected undefined, actual/.test(issue.detail) &&
      !/Expected undefined, actual/.test(other.detail)))

/** The words of one issue, with the field it is about first. */
const wordsOf = (issue: ParseResult.ArrayFormatterIssue): string => {
  const field = issue.path.length === 0 ? "The input" : issue.path.map(String).join(", then ")
  if (issue._tag === "Unexpected") return `${field}: is not a field this operation takes.`
  if (issue._tag === "Missing") return `${field}: is required.`
  return `${field}: ${issue.message.replace(/\s+/g, " ")}`
}

/**
 * Decodes an operation's input. Keys the schema does not name are refused, and each issue is reported at its
 * JSON pointer (under `prefix`) as `invalid_input`.
 */
export const decodeInput = <A, I>(
  schema: Schema.Schema<A, I>,
  input: unknown,
  prefix = ""
): Either.Either<A, Rejection> => {
  const decoded = Schema.decodeUnknownEither(schema, { onExcessProperty: "error", errors: "all" })(input)
  if (Either.isRight(decoded)) return Either.right(decoded.right)
  const issues = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
  const seen = new Set<string>()
  const errors: Array<{ pointer: string; detail: string }> = []
  for (const issue of issues) {
    const error = { pointer: pointerOf(issue.path, prefix), detail: wordsOf(issue) }
    const key = `${error.pointer}\u0000${error.detail}`
    if (seen.has(key)) continue
    seen.add(key)
    errors.push(error)
  }
  return Either.left(
    invalidInput(errors.filter((error, index) => !errors.some((other, at) => supersedes(other, at, error, index))))
  )
}
