import type { SourceIssue } from "../DefinitionFormat.js"
import { describeValue } from "./describeValue.js"

/**
 * The issues of a function's `description` (function-formats.md §1.1): absent, or text of 1 to 1,000 characters.
 * `issueAt` places an issue at a pointer of the document.
 */
export const descriptionIssues = (
  issueAt: (pointer: string, message: string) => SourceIssue,
  description: unknown
): ReadonlyArray<SourceIssue> => {
  if (description === undefined) return []
  const length = typeof description === "string" ? [...description].length : 0
  return typeof description !== "string" || length < 1 || length > 1_000
    ? [issueAt("/description", `expected text of 1 to 1,000 characters, found ${describeValue(description)}`)]
    : []
}
