import { Either } from "effect"
import type { InputIssue } from "../../domain/Rejection.js"
import { schemaValidator } from "../jsonSchema/SchemaValidator.js"

/** The issues of a run's input against the document's input schema, under `/input`; none without a schema. */
export const inputIssues = (inputSchema: unknown, input: unknown): ReadonlyArray<InputIssue> =>
  inputSchema === undefined
    ? []
    : Either.match(schemaValidator(inputSchema), {
        onLeft: () => [],
        onRight: (validate) => validate(input, "/input")
      })
