import { Either } from "effect"
import type { Template } from "liquidjs"
import { type DefinitionType, definitionTypes } from "../../definitions/DefinitionType.js"
import type { ReadDocument, SourceIssue } from "../DefinitionFormat.js"
import { describeValue } from "../document/describeValue.js"
import { descriptionIssues } from "../document/descriptionIssues.js"
import { finishIssues } from "../document/finishIssues.js"
import { type FrontMatter, readFrontMatter } from "../document/readFrontMatter.js"
import { schemaIssues } from "../document/schemaIssues.js"
import { toolNameIssues } from "../document/toolNames.js"
import { argumentTemplates } from "../interaction/argumentTemplates.js"
import { requestVariables } from "../interaction/requestVariables.js"
import { lookupPlace } from "./lookupPlace.js"

/** A template found inside `call.with`, at its pointer, parsed. */
export interface ArgumentTemplate {
  readonly text: string
  readonly template: ReadonlyArray<Template>
}

/** The tool a lookup calls: its server and name, the arguments' templates, the pointer it reads, the line of `call`. */
export interface LookupCall {
  readonly server: string
  readonly tool: string
  /** The `with` mapping as written; its strings are templates. */
  readonly with: Record<string, unknown>
  readonly templates: ReadonlyMap<string, ArgumentTemplate>
  readonly read?: string
  /** Where issues about the tool go: the line and column of `call`. */
  readonly at: { readonly line: number; readonly column: number }
}

/** The runs a lookup reads: another definition's, of one status, newest first, at most `limit`. */
export interface LookupRuns {
  readonly type: string
  readonly name: string
  readonly status: "succeeded" | "rejected" | "failed"
  readonly limit: number
}

/** A lookup document as read: what a definition shows, and its one shape. */
export interface LookupDocument {
  readonly document: ReadDocument
  readonly call?: LookupCall
  readonly runs?: LookupRuns
}

const definitionName = /^[a-z][a-z0-9_-]{0,63}$/

/**
 * Reads `call`: server and tool shapes, `with` a mapping of templates over input, today and now, `read` a JSON
 * pointer. A lookup's and an interaction's `call` read alike (function-formats.md §3.1, §5.2.1).
 */
export const readCall = (
  front: FrontMatter,
  at: LookupCall["at"],
  issues: Array<SourceIssue>
): LookupCall | undefined => {
  const call = front.value.call as Record<string, unknown>
  const { server, tool, read } = call
  issues.push(...toolNameIssues(front.issueAt, "/call", server, tool))
  const withValue = call.with ?? {}
  if (typeof withValue !== "object" || withValue === null || Array.isArray(withValue))
    issues.push(
      front.issueAt("/call/with", `expected a mapping of the tool's arguments, found ${describeValue(withValue)}`)
    )
  if (read !== undefined && (typeof read !== "string" || !read.startsWith("/")))
    issues.push(
      front.issueAt(
        "/call/read",
        `expected a JSON pointer that begins with /, found ${describeValue(read)}; to take the whole answer, leave read out`
      )
    )
  const { templates, issues: templateIssues } = argumentTemplates(withValue, "/call/with", requestVariables)
  for (const issue of templateIssues) issues.push(front.issueAt(issue.pointer, issue.message))
  return {
    server: String(server),
    tool: String(tool),
    with: (typeof withValue === "object" && withValue !== null ? withValue : {}) as Record<string, unknown>,
    templates,
    ...(typeof read === "string" ? { read } : {}),
    at
  }
}

/** Where the key `call` is written: its line, column 1 (a save's live check puts its issues there). */
export const lineOfCall = (source: string): LookupCall["at"] => ({
  line: source.split("\n").findIndex((line) => /^call\s*:/.test(line)) + 1,
  column: 1
})

/** Reads `runs`: a definition type and name, a status (succeeded by default) and a limit of 1 to 100 (20). */
const readRuns = (front: FrontMatter, issues: Array<SourceIssue>): LookupRuns => {
  const runs = front.value.runs as Record<string, unknown>
  const { type, name, status = "succeeded", limit = 20 } = runs
  if (typeof type !== "string" || !(definitionTypes as ReadonlyArray<string>).includes(type))
    issues.push(
      front.issueAt("/runs/type", `expected one of ${definitionTypes.join(", ")}, found ${describeValue(type)}`)
    )
  if (typeof name !== "string" || !definitionName.test(name))
    issues.push(front.issueAt("/runs/name", `expected a definition's name, found ${describeValue(name)}`))
  if (status !== "succeeded" && status !== "rejected" && status !== "failed")
    issues.push(front.issueAt("/runs/status", `expected succeeded, rejected or failed, found ${describeValue(status)}`))
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > 100)
    issues.push(front.issueAt("/runs/limit", `expected a whole number from 1 to 100, found ${describeValue(limit)}`))
  return { type: String(type), name: String(name), status: status as LookupRuns["status"], limit: Number(limit) }
}

/**
 * Reads a lookup function's document (function-formats.md §5.2, decision F1): the envelope; `description`;
 * exactly one of `call` and `runs`; `input.schema`; `output.schema`, required with `call`; no body. Every issue at
 * once. Whether the tool is offered and marked reads is the save's live check, not the reader's.
 */
export const readLookup = (source: string): Either.Either<LookupDocument, ReadonlyArray<SourceIssue>> =>
  Either.flatMap(readFrontMatter(source, lookupPlace, "a lookup function"), (front) => {
    const value = front.value
    const issues: Array<SourceIssue> = [...front.issues]
    const description = value.description
    issues.push(...descriptionIssues(front.issueAt, description))
    if (front.body.trim() !== "")
      issues.push(front.bodyIssue(1, 1, "a lookup takes no body: its call or its runs say everything it does"))
    const input = (value.input ?? {}) as Record<string, unknown>
    const output = (value.output ?? {}) as Record<string, unknown>
    if (input.schema !== undefined) issues.push(...schemaIssues(front.issueAt, "/input/schema", input.schema))
    if (output.schema !== undefined) issues.push(...schemaIssues(front.issueAt, "/output/schema", output.schema))
    if (value.call === undefined && value.runs === undefined)
      issues.push(
        front.issueAt("", "a lookup names one of call (a tool marked reads) and runs (another definition's runs)")
      )
    if (value.call !== undefined && value.runs !== undefined)
      issues.push(front.issueAt("/runs", "a lookup names exactly one of call and runs, not both"))
    if (value.call !== undefined && output.schema === undefined)
      issues.push(front.issueAt("/output", "call needs output.schema: the shape of the value at read"))
    const call = value.call === undefined ? undefined : readCall(front, lineOfCall(source), issues)
    const runs = value.runs === undefined || value.call !== undefined ? undefined : readRuns(front, issues)
    if (issues.length > 0) return Either.left(finishIssues(issues))
    const document: ReadDocument = {
      ...(typeof description === "string" ? { description } : {}),
      ...(input.schema === undefined ? {} : { inputSchema: input.schema }),
      ...(output.schema === undefined ? {} : { outputSchema: output.schema }),
      ...(value.page === undefined ? {} : { page: value.page }),
      ...(runs === undefined
        ? {}
        : { uses: [{ type: runs.type as DefinitionType, name: runs.name, relation: "reads" }] }),
      warnings: [],
      finishesLater: false,
      callsTools: call !== undefined
    }
    return Either.right({ document, ...(call === undefined ? {} : { call }), ...(runs === undefined ? {} : { runs }) })
  })
