import type { SourceIssue } from "../DefinitionFormat.js"
import { describeValue } from "./describeValue.js"

/** A tool server's name: 1 to 32 lowercase letters, digits and hyphens, first a letter. */
export const serverNamePattern = /^[a-z][a-z0-9-]{0,31}$/

/** A tool's name: 1 to 128 letters, digits, `_`, `-` and `.`. */
export const toolNamePattern = /^[A-Za-z0-9_.-]{1,128}$/

/**
 * The issues of a tool a document names as `server` and `tool` under `pointer` (a lookup's or an interaction's
 * `call`, an interaction's `deliver`). `issueAt` places an issue at a pointer of the document.
 */
export const toolNameIssues = (
  issueAt: (pointer: string, message: string) => SourceIssue,
  pointer: string,
  server: unknown,
  tool: unknown
): ReadonlyArray<SourceIssue> => [
  ...(typeof server === "string" && serverNamePattern.test(server)
    ? []
    : [
        issueAt(
          `${pointer}/server`,
          `expected a server name of 1 to 32 lowercase letters, digits and hyphens, first a letter, found ${describeValue(server)}`
        )
      ]),
  ...(typeof tool === "string" && toolNamePattern.test(tool)
    ? []
    : [
        issueAt(
          `${pointer}/tool`,
          `expected a tool name of 1 to 128 letters, digits, _, - and ., found ${describeValue(tool)}`
        )
      ])
]
