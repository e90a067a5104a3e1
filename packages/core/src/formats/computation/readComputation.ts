import { Either } from "effect"
import type { ReadDocument, SourceIssue } from "../DefinitionFormat.js"
import { describeValue } from "../document/describeValue.js"
import { descriptionIssues } from "../document/descriptionIssues.js"
import { finishIssues } from "../document/finishIssues.js"
import { type OutputShape, outputShapeSchemas, outputShapes } from "../document/outputShapes.js"
import type { Place } from "../document/Place.js"
import { readFrontMatter } from "../document/readFrontMatter.js"
import { schemaIssues } from "../document/schemaIssues.js"

/** The keys of a computation function's front matter (function-formats.md §4.1). */
export const computationPlace: Place = {
  keys: {
    description: "value",
    language: "value",
    input: { keys: { schema: "value" }, refused: { default: "a computation takes its input as given" } },
    output: {
      keys: { schema: "value", shape: "value" },
      refused: { format: "a computation returns JSON; describe it with schema or shape" }
    },
    page: "value"
  },
  required: ["language"],
  refused: {
    model: "a computation runs no model",
    config: "a computation has no model settings",
    tools: "a computation calls no tools"
  }
}

/** A computation document as read: what a definition shows, and the module with the line it starts on. */
export interface ComputationDocument {
  readonly document: ReadDocument
  readonly body: string
  readonly bodyLine: number
}

/**
 * Reads a computation function's document (function-formats.md §1.1, §4.1): the envelope, then `description`
 * (1 to 1,000 characters), `language: typescript`, `input.schema`, `output.schema` or `output.shape` (not both,
 * decision W3), `page` kept as written, and a body that holds the module. Every issue is reported at once.
 */
export const readComputation = (source: string): Either.Either<ComputationDocument, ReadonlyArray<SourceIssue>> =>
  Either.flatMap(readFrontMatter(source, computationPlace, "a computation function"), (front) => {
    const issues: Array<SourceIssue> = [...front.issues]
    const value = front.value
    const description = value.description
    issues.push(...descriptionIssues(front.issueAt, description))
    if (value.language !== undefined && value.language !== "typescript") {
      issues.push(front.issueAt("/language", "the only language is TypeScript: write language: typescript"))
    }
    const input = (value.input ?? {}) as Record<string, unknown>
    const output = (value.output ?? {}) as Record<string, unknown>
    if (input.schema !== undefined) issues.push(...schemaIssues(front.issueAt, "/input/schema", input.schema))
    if (output.schema !== undefined) issues.push(...schemaIssues(front.issueAt, "/output/schema", output.schema))
    const shape = output.shape
    if (shape !== undefined && !outputShapes.includes(shape as OutputShape)) {
      issues.push(
        front.issueAt("/output/shape", `expected one of ${outputShapes.join(", ")}, found ${describeValue(shape)}`)
      )
    }
    if (shape !== undefined && output.schema !== undefined) {
      issues.push(front.issueAt("/output/shape", "write output.shape or output.schema, not both"))
    }
    if (front.body.trim() === "") {
      issues.push(
        front.bodyIssue(1, 1, "the body must hold the TypeScript module whose default export takes the input")
      )
    }
    if (issues.length > 0) return Either.left(finishIssues(issues))
    const named = typeof shape === "string" ? (shape as OutputShape) : undefined
    const outputSchema = output.schema ?? (named === undefined ? undefined : outputShapeSchemas[named])
    return Either.right({
      body: front.body,
      bodyLine: front.bodyLine,
      document: {
        ...(typeof description === "string" ? { description } : {}),
        ...(input.schema === undefined ? {} : { inputSchema: input.schema }),
        ...(outputSchema === undefined ? {} : { outputSchema }),
        ...(named === undefined ? {} : { shape: named }),
        ...(value.page === undefined ? {} : { page: value.page }),
        warnings: [],
        finishesLater: false,
        callsTools: false
      }
    })
  })
