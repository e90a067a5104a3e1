import { Either } from "effect"
import { jsonBytes } from "../domain/utf8Bytes.js"
import { schemaValidator } from "../formats/jsonSchema/SchemaValidator.js"
import { regularExpressionsIn } from "./regularExpressionsIn.js"

/** The most bytes a tool's arguments may hold as JSON: 256 KiB, the most a run takes as its input. */
export const argumentsBound = 262_144

/** Whether arguments are over 256 KiB as JSON. */
export const argumentsTooLarge = (args: unknown): boolean => jsonBytes(args) > argumentsBound

/** What checking arguments against a tool's input schema found: valid (or null when it cannot tell) and the issues. */
export interface ArgumentsCheck {
  readonly valid: boolean | null
  readonly issues: ReadonlyArray<{ readonly path: string; readonly message: string }>
}

/** An example of each format the runtime checks, for the words of an argument out of it. */
const formatExamples: Record<string, string> = {
  date: "2026-04-01",
  "date-time": "2026-04-01T09:00:00Z",
  time: "09:00:00Z",
  email: "ada@example.com",
  uri: "https://example.com/page",
  uuid: "0199b7e2-4c1d-7a3e-8f5b-6d2c1e0f9a8b"
}

/**
 * Checks arguments against a tool's input schema (HTTP "Reading one tool"): at most 20 issues, then one that
 * counts the rest; an argument out of a checked format (date, date-time, time, email, uri, uuid) is an issue in
 * words that give an example; a schema the checker cannot handle, or that holds a regular expression (ADR 0344),
 * answers valid null with one issue saying why.
 */
export const checkArguments = (schema: unknown, args: unknown): ArgumentsCheck => {
  if (regularExpressionsIn(schema))
    return {
      valid: null,
      issues: [
        {
          path: "",
          message:
            "The runtime does not check against this tool's input schema, which holds a regular expression (pattern); the arguments may still be right."
        }
      ]
    }
  const validator = schemaValidator(schema)
  if (Either.isLeft(validator))
    return {
      valid: null,
      issues: [
        {
          path: "",
          message: `The runtime cannot check against this tool's input schema: ${validator.left}; the arguments may still be right.`
        }
      ]
    }
  const issues = validator.right(args, "").map(({ pointer, detail }) => {
    const format = /must match format "([^"]+)"/.exec(detail)?.[1]
    return {
      path: pointer,
      message:
        format === undefined
          ? detail
          : `Expected a string in the format ${format}${formatExamples[format] === undefined ? "" : `, such as ${formatExamples[format]}`}`
    }
  })
  return { valid: issues.length === 0, issues }
}
