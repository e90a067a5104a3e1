import { Either } from "effect"
import { schemaValidator, type ValueIssue } from "../jsonSchema/SchemaValidator.js"
import { deeperThan } from "../jsonSchema/valueDepth.js"

/** The deepest a JSON answer may nest (function-formats.md §1.4). */
export const answerDepth = 128

/**
 * Reads a JSON answer and checks it against the output schema (function-formats.md §2.7): the text must be JSON,
 * nest at most 128 levels and fit the schema. Right: the value. Left: the issues, pointers under `/output`.
 */
export const checkAnswer = (text: string, schema: unknown): Either.Either<unknown, ReadonlyArray<ValueIssue>> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return Either.left([{ pointer: "/output", detail: "/output is not JSON." }])
  }
  if (deeperThan(value, answerDepth))
    return Either.left([{ pointer: "/output", detail: `/output nests deeper than ${answerDepth} levels.` }])
  const validate = Either.getOrUndefined(schemaValidator(schema))
  const issues = validate === undefined ? [] : validate(value, "/output")
  return issues.length === 0 ? Either.right(value) : Either.left(issues)
}
