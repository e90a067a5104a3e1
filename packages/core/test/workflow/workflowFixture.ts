import { Either } from "effect"
import { sourceIssueWords } from "../../src/formats/DefinitionFormat.js"
import { readWorkflow, type WorkflowReadOptions } from "../../src/formats/workflow/readWorkflow.js"
import type { WorkflowDocument } from "../../src/formats/workflow/WorkflowDocument.js"

/** The header of a test document: five lines, so `do:` or the next key is line 6. */
export const header = "document:\n  dsl: '1.0.3'\n  namespace: test\n  name: flow\n  version: '1.0.0'\n"

/** A document of the header, then `head` (top-level keys), then `do:` and the task lines. */
export const workflow = (tasks: string, head = ""): string => `${header}${head}do:\n${tasks}`

/** The issues of a document, as `Line L, column C: at /pointer: message`; empty when it reads. */
export const issuesOf = (source: string, options?: WorkflowReadOptions): ReadonlyArray<string> =>
  Either.match(readWorkflow(source, options), { onLeft: (issues) => issues.map(sourceIssueWords), onRight: () => [] })

/** The document as read, failing the test with its issues when it does not read. */
export const readOrFail = (source: string): WorkflowDocument =>
  Either.getOrThrowWith(readWorkflow(source), (issues) => new Error(issues.map(sourceIssueWords).join("\n")))
