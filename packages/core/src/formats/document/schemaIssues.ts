import { Either } from "effect"
import type { SourceIssue } from "../DefinitionFormat.js"
import { checkSchema } from "../jsonSchema/checkSchema.js"
import { schemaValidator } from "../jsonSchema/SchemaValidator.js"

/**
 * The issues of a JSON Schema a document holds at `pointer`: the rules of function-formats.md §1.4 at the
 * keyword that breaks each, else whether it compiles. `issueAt` places an issue at a pointer of the document.
 */
export const schemaIssues = (
  issueAt: (pointer: string, message: string) => SourceIssue,
  pointer: string,
  schema: unknown
): ReadonlyArray<SourceIssue> => {
  const broken = checkSchema(schema).map((issue) => issueAt(`${pointer}${issue.pointer}`, issue.message))
  if (broken.length > 0) return broken
  return Either.match(schemaValidator(schema), {
    onLeft: (words) => [issueAt(pointer, words)],
    onRight: () => []
  })
}
