import { LineCounter, parseDocument } from "yaml"
import type { InputIssue } from "../domain/Rejection.js"

/**
 * Checks a page's YAML as far as pages are defined (decision F10): it must parse, as one mapping.
 * Each problem is reported under the pointer given, as `Line L, column C: message`.
 */
export const checkPage = (source: string, pointer: string): ReadonlyArray<Pick<InputIssue, "pointer" | "detail">> => {
  const lineCounter = new LineCounter()
  const document = parseDocument(source, { lineCounter, prettyErrors: false })
  const issues = document.errors.map((error) => {
    const { line, col } = lineCounter.linePos(error.pos[0])
    return { pointer, detail: `Line ${line}, column ${col}: ${error.message.split("\n")[0]}` }
  })
  if (issues.length > 0) return issues
  const contents = document.contents
  if (
    contents !== null &&
    !(contents && typeof contents === "object" && "items" in contents && !Array.isArray(document.toJS()))
  )
    return [{ pointer, detail: "Line 1, column 1: a page is a YAML mapping of its keys." }]
  if (contents === null)
    return [{ pointer, detail: "Line 1, column 1: a page is a YAML mapping of its keys; this one is empty." }]
  return []
}
