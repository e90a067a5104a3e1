import type { SourceIssue } from "../DefinitionFormat.js"

/** How many issues a refusal shows before it counts the rest (function-formats.md §1.3). */
export const shownIssues = 20

const compare = (left: SourceIssue, right: SourceIssue): number =>
  left.line - right.line ||
  left.column - right.column ||
  (left.pointer < right.pointer ? -1 : left.pointer > right.pointer ? 1 : 0) ||
  (left.message < right.message ? -1 : left.message > right.message ? 1 : 0)

/**
 * The issues as a refusal lists them: de-duplicated, sorted by line, column and pointer, at most 20, then one
 * more entry, at the line of the first hidden issue, that says how many are not shown.
 */
export const finishIssues = (issues: ReadonlyArray<SourceIssue>): ReadonlyArray<SourceIssue> => {
  const seen = new Set<string>()
  const unique = issues.filter((issue) => {
    const key = `${issue.line}\u0000${issue.column}\u0000${issue.pointer}\u0000${issue.message}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  const sorted = unique.toSorted(compare)
  if (sorted.length <= shownIssues) return sorted
  const hidden = sorted.slice(shownIssues)
  const first = hidden[0]!
  const count = hidden.length
  return [
    ...sorted.slice(0, shownIssues),
    {
      line: first.line,
      column: first.column,
      pointer: first.pointer,
      message: `${count} more ${count === 1 ? "issue is" : "issues are"} not shown`
    }
  ]
}
