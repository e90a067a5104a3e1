import { Effect, ParseResult, Schema } from "effect"
import { Uuid } from "../domain/Ids.js"

const codePoints = (text: string): number => [...text].length

/** The most characters an address holds. */
export const addressBound = 512

/** An address as given: at most 512 characters; its form is checked against the route's scope afterwards. */
export const AddressText = Schema.String.pipe(
  Schema.filter((address) => codePoints(address) <= addressBound || "must be at most 512 characters", {
    jsonSchema: { maxLength: addressBound }
  }),
  Schema.annotations({
    description:
      "The address of what the comment is about, such as finance/runs/<run id>, finance/definitions/workflow/close-the-week/4/steps/do/1/review, playbooks/finance, org or org/connections/<connection>; at most 512 characters.",
    examples: ["finance/definitions/workflow/close-the-week/4/steps/do/1/review"]
  })
)

/** The most characters a comment's text holds as sent. */
export const textBound = 4000

/** Whether a code point is a noncharacter: U+FDD0 to U+FDEF, and the last two of every plane. */
const isNoncharacter = (point: number): boolean => (point >= 0xfdd0 && point <= 0xfdef) || (point & 0xfffe) === 0xfffe

/** Whether a code point is a control character other than a tab or a line break (LF, CR). */
const isControl = (point: number): boolean =>
  (point < 0x20 && point !== 0x09 && point !== 0x0a && point !== 0x0d) || (point >= 0x7f && point <= 0x9f)

const isSurrogate = (point: number): boolean => point >= 0xd800 && point <= 0xdfff

/** What is wrong with a text as sent, in words, or true where nothing is. */
const textRule = (raw: string): string | true => {
  const points = [...raw].map((character) => character.codePointAt(0)!)
  if (points.length > textBound) return "must be at most 4,000 characters as sent, white space around it included"
  if (raw.trim() === "") return "cannot be empty or all white space"
  if (points.some(isControl)) return "holds a control character; only a tab and a line break are taken"
  if (points.some(isSurrogate)) return "holds an unpaired surrogate"
  if (points.some(isNoncharacter)) return "holds a noncharacter"
  return true
}

/** A comment's text: Markdown of at most 4,000 characters as sent, kept without the white space around it. */
export const CommentText = Schema.String.pipe(
  Schema.filter(textRule, { jsonSchema: { minLength: 1, maxLength: textBound } }),
  Schema.compose(Schema.Trim),
  Schema.annotations({
    jsonSchema: {
      type: "string",
      minLength: 1,
      maxLength: textBound,
      description:
        "What the person says, in Markdown: at most 4,000 characters as sent, kept without the white space around it; not empty, and no control character but a tab and a line break."
    }
  })
)

/** Where on the thing a comment was dropped: fractions of its box from its left and its top. */
export const Anchor = Schema.Struct({ x: Schema.Number, y: Schema.Number }).annotations({
  identifier: "Anchor",
  description: "Where on the thing the comment was dropped: x from its left edge, y from its top, each from 0 to 1."
})
export type Anchor = typeof Anchor.Type

/** The words of an anchor out of range (HTTP "Making a comment"). */
export const anchorRule = "Expected x and y, each a number from 0 to 1 with at most 4 decimals"

/** Whether a coordinate is from 0 to 1 with at most 4 decimals. */
const fits = (value: number): boolean => value >= 0 && value <= 1 && Number(value.toFixed(4)) === value

/** The issues of an anchor's shape, each at the field within it, in the seed's words. */
const shapeIssues = (anchor: Record<string, unknown>, ast: Schema.Schema.Any["ast"]): Array<ParseResult.ParseIssue> => [
  ...["x", "y"].flatMap((key) =>
    !(key in anchor)
      ? [new ParseResult.Pointer(key, anchor, new ParseResult.Type(ast, undefined, "Missing key"))]
      : typeof anchor[key] !== "number"
        ? [new ParseResult.Pointer(key, anchor, new ParseResult.Type(ast, anchor[key], "Expected number"))]
        : []
  ),
  ...Object.keys(anchor)
    .filter((key) => key !== "x" && key !== "y")
    .map(
      (key) =>
        new ParseResult.Pointer(key, anchor, new ParseResult.Type(ast, anchor[key], "Expected no excess property"))
    )
]

/**
 * make_comment's `anchor` as given: `{ x, y }` or null, null taken as left out. Refused in the seed's words: at
 * `/anchor` when it is neither an object nor null or out of range, at the field within it for another shape.
 */
export const AnchorInput = Schema.declare(
  [],
  {
    decode: () => (input, _options, ast) => {
      if (input === null) return Effect.succeed(null)
      if (typeof input !== "object" || Array.isArray(input))
        return Effect.fail(new ParseResult.Type(ast, input, "Expected object | null"))
      const anchor = input as Record<string, unknown>
      const issues = shapeIssues(anchor, ast)
      if (issues.length > 0)
        return Effect.fail(
          issues.length === 1 ? issues[0] : new ParseResult.Composite(ast, input, issues as [ParseResult.ParseIssue])
        )
      const { x, y } = anchor as Anchor
      return fits(x) && fits(y) ? Effect.succeed({ x, y }) : Effect.fail(new ParseResult.Type(ast, input, anchorRule))
    },
    encode: () => (anchor) => Effect.succeed(anchor)
  },
  {
    jsonSchema: {
      anyOf: [
        {
          type: "object",
          properties: {
            x: {
              type: "number",
              minimum: 0,
              maximum: 1,
              description: "From the thing's left edge (0) to its right (1), at most 4 decimals."
            },
            y: {
              type: "number",
              minimum: 0,
              maximum: 1,
              description: "From the thing's top (0) to its bottom (1), at most 4 decimals."
            }
          },
          required: ["x", "y"],
          additionalProperties: false
        },
        { type: "null" }
      ],
      description:
        "Where on the thing the person dropped the comment, as fractions of its box; left out or null for a comment without a pin, as a reply is."
    }
  }
) as Schema.Schema<Anchor | null, unknown>

/** resolve_comment's `how`: acted, done as the comment asked, or dismissed, closed without acting. */
export const ResolveHow = Schema.Literal("acted", "dismissed").annotations({
  message: () => ({ message: "must be acted or dismissed", override: true }),
  description: "acted once what the comment asked is done, or dismissed to close it without acting."
})

/** A comment's id in a route: a UUID, read in lower case. */
export const CommentIdPath = Schema.Struct({
  id: Uuid.annotations({ description: "The comment's id, a UUID; read in lower case." })
})

/** list_comments's `limit`: 1 to 200 comments a page, 50 when left out. */
export const CommentLimit = Schema.Int.pipe(
  Schema.between(1, 200),
  Schema.annotations({
    message: () => ({ message: "must be a whole number from 1 to 200", override: true }),
    description: "How many comments a page holds, 1 to 200; 50 when left out."
  })
)

/** The page size of list_comments when `limit` is left out. */
export const defaultCommentLimit = 50
