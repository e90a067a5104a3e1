import { utf8Bytes } from "../../domain/utf8Bytes.js"
import type { SourceIssue } from "../DefinitionFormat.js"
import { sourceText } from "./SourceText.js"

/** The largest source document, in UTF-8 bytes (function-formats.md §1.1, workflow-format.md §2). */
export const maxDocumentBytes = 65_536

/**
 * The rules a source document's text must keep before it is read at all: no byte-order mark, at most 65,536
 * bytes of UTF-8, and no lone carriage return. The one issue of the first rule broken, if any.
 */
export const checkText = (source: string): SourceIssue | undefined => {
  const issue = (message: string, offset = 0): SourceIssue => ({
    ...sourceText(source).positionAt(offset),
    pointer: "",
    message
  })
  if (source.startsWith("\uFEFF")) return issue("the document starts with a byte-order mark; save it without one")
  const bytes = utf8Bytes(source)
  if (bytes > maxDocumentBytes)
    return issue(`the document holds ${bytes} bytes; at most ${maxDocumentBytes} are allowed`)
  const loneReturn = /\r(?!\n)/.exec(source)
  if (loneReturn !== null) return issue("a line ends with a lone carriage return; use \\n or \\r\\n", loneReturn.index)
  return undefined
}
