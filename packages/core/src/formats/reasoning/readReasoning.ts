import { Either } from "effect"
import { type Template, TokenKind } from "liquidjs"
import type { ModelCallSettings } from "../../ports/ModelProvider.js"
import { type ReadDocument, type SourceIssue, sourceIssueWords } from "../DefinitionFormat.js"
import { describeValue } from "../document/describeValue.js"
import { descriptionIssues } from "../document/descriptionIssues.js"
import { finishIssues } from "../document/finishIssues.js"
import { type OutputShape, outputShapeSchemas, outputShapes } from "../document/outputShapes.js"
import { type FrontMatter, readFrontMatter } from "../document/readFrontMatter.js"
import { schemaIssues } from "../document/schemaIssues.js"
import { checkTemplate } from "../interaction/checkTemplate.js"
import { schemaValidator } from "../jsonSchema/SchemaValidator.js"
import { portabilityFindings } from "./portabilityWarnings.js"
import { promptEngine, SystemTag } from "./promptEngine.js"
import { providerOptionIssues } from "./providerOptions.js"
import { reasoningPlace } from "./reasoningPlace.js"
import { readToolReference, type ToolReference } from "./toolReferences.js"

/** The variables a prompt reads (function-formats.md §2.3). */
export const promptVariables = ["input", "today", "now"] as const

/** The reasoning settings a function may ask for. */
const reasoningLevels = ["none", "minimal", "low", "medium", "high", "xhigh"] as const

/** The most warnings a definition keeps (function-formats.md §1.3). */
const warningBound = 100

/** The output tokens a call may ask for when the document says nothing. */
export const defaultMaxOutputTokens = 1_024

/** A reasoning document as read: what a definition shows and what a run needs. */
export interface ReasoningDocument {
  readonly document: ReadDocument
  readonly model: string
  readonly settings: ModelCallSettings
  readonly inputSchema?: unknown
  readonly inputDefault?: Readonly<Record<string, unknown>>
  /** The `provider_options`, by namespace. */
  readonly providerOptions?: Readonly<Record<string, unknown>>
  readonly output: { readonly format: "text" } | { readonly format: "json"; readonly schema: unknown }
  readonly tools: ReadonlyArray<ToolReference>
  readonly prompt: { readonly text: string; readonly template: ReadonlyArray<Template> }
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The templates a tag holds, read through liquidjs's `children` (synchronous for every tag a prompt may use). */
const childrenOf = (template: Template): ReadonlyArray<Template> => {
  const children = (template as { children?: (partials: boolean, sync: boolean) => Generator<unknown> }).children
  if (children === undefined) return []
  const walk = children.call(template, false, true)
  let step = walk.next()
  while (step.done !== true) step = walk.next(step.value)
  return Array.isArray(step.value) ? (step.value as ReadonlyArray<Template>) : []
}

const lineOf = (template: Template): number => template.token.getPosition()[0]

/** The system block rules (§2.3): at most one, at the top level; and a message written outside it. */
const promptIssues = (template: ReadonlyArray<Template>): Array<{ line: number; message: string }> => {
  const issues: Array<{ line: number; message: string }> = []
  const blocks = template.filter((part) => part instanceof SystemTag)
  for (const extra of blocks.slice(1))
    issues.push({ line: lineOf(extra), message: "a prompt holds at most one system block" })
  const nested = (parts: ReadonlyArray<Template>): void => {
    for (const part of parts) {
      for (const child of childrenOf(part)) {
        if (child instanceof SystemTag)
          issues.push({
            line: lineOf(child),
            message: "the system block stands at the top level of the prompt, inside no other tag"
          })
      }
      nested(childrenOf(part))
    }
  }
  nested(template)
  const outside = template.filter((part) => !(part instanceof SystemTag))
  const writes = outside.some(
    (part) => part.token.kind !== TokenKind.HTML || !/^\s*$/.test(String((part as { str?: string }).str ?? ""))
  )
  if (!writes) issues.push({ line: 1, message: "the prompt writes no message outside its system block" })
  return issues
}

/** The input fields a prompt reads that a closed input schema does not declare. */
const undeclaredFields = (
  template: ReadonlyArray<Template>,
  schema: unknown
): Array<{ line: number; column: number; message: string }> => {
  if (!isMapping(schema) || schema.additionalProperties !== false) return []
  const declared = isMapping(schema.properties) ? Object.keys(schema.properties) : []
  const uses = promptEngine.analyzeSync(template as Array<Template>).globals.input ?? []
  return uses.flatMap((use) => {
    const field = use.segments[1]
    return typeof field === "string" && !declared.includes(field)
      ? [
          {
            line: use.location.row,
            column: use.location.col,
            message: `input.${field} is not a field of the input schema, which closes the input to ${declared.join(", ") || "no field"}`
          }
        ]
      : []
  })
}

/** Reads `config` into the settings of a call, with the issues of each setting out of its range. */
const settingsOf = (front: FrontMatter, config: Record<string, unknown>, issues: Array<SourceIssue>) => {
  const at = (key: string, expected: string) =>
    issues.push(front.issueAt(`/config/${key}`, `expected ${expected}, found ${describeValue(config[key])}`))
  const { max_output_tokens, temperature, top_p, seed, stop_sequences, reasoning } = config
  if (
    max_output_tokens !== undefined &&
    !(
      Number.isInteger(max_output_tokens) &&
      (max_output_tokens as number) >= 1 &&
      (max_output_tokens as number) <= 64_000
    )
  )
    at("max_output_tokens", "a whole number from 1 to 64,000")
  if (temperature !== undefined && !(typeof temperature === "number" && Number.isFinite(temperature)))
    at("temperature", "a number")
  if (top_p !== undefined && !(typeof top_p === "number" && Number.isFinite(top_p))) at("top_p", "a number")
  if (seed !== undefined && !(Number.isInteger(seed) && (seed as number) >= 0))
    at("seed", "a whole number of 0 or more")
  if (
    stop_sequences !== undefined &&
    !(Array.isArray(stop_sequences) && stop_sequences.every((item) => typeof item === "string"))
  )
    at("stop_sequences", "a list of texts")
  if (reasoning !== undefined && !(reasoningLevels as ReadonlyArray<unknown>).includes(reasoning))
    at("reasoning", `one of ${reasoningLevels.join(", ")}`)
  return {
    maxOutputTokens: typeof max_output_tokens === "number" ? max_output_tokens : defaultMaxOutputTokens,
    ...(typeof temperature === "number" ? { temperature } : {}),
    ...(typeof top_p === "number" ? { topP: top_p } : {}),
    ...(typeof seed === "number" ? { seed } : {}),
    ...(Array.isArray(stop_sequences) ? { stopSequences: stop_sequences as ReadonlyArray<string> } : {}),
    ...(typeof reasoning === "string" ? { reasoning: reasoning as ModelCallSettings["reasoning"] } : {})
  } satisfies ModelCallSettings
}

/** The issues of `input.default`: an object whose named fields satisfy the input schema. */
const defaultIssues = (front: FrontMatter, value: unknown, schema: unknown): ReadonlyArray<SourceIssue> => {
  if (!isMapping(value))
    return [front.issueAt("/input/default", `expected a mapping of input fields, found ${describeValue(value)}`)]
  const validate = schema === undefined ? undefined : Either.getOrUndefined(schemaValidator(schema))
  if (validate === undefined) return []
  const base = "/input/default"
  const named = (pointer: string) => {
    const field = pointer.slice(base.length + 1).split("/")[0] ?? ""
    return Object.hasOwn(value, field.replaceAll("~1", "/").replaceAll("~0", "~"))
  }
  return validate(value, base)
    .filter((issue) => named(issue.pointer))
    .map((issue) => front.issueAt(issue.pointer, issue.detail))
}

/**
 * Reads a reasoning function's document (function-formats.md §1.1, §2.1–§2.5): the envelope; `description`; the
 * model as `provider/model`; `config` in its ranges; an object-rooted `input.schema` and an `input.default` that
 * satisfies it; `output` as text, JSON with a schema, or a shape; `provider_options` of reviewed keys; `tools` as
 * `server/tool` or `server/*`, each once; and the prompt in the body (template rules, one top-level system block,
 * a message outside it, only declared fields of a closed input). The model and tools are not checked against the
 * runtime's settings, so a definition saved on one runtime runs on another. Every issue at once.
 */
export const readReasoning = (source: string): Either.Either<ReasoningDocument, ReadonlyArray<SourceIssue>> =>
  Either.flatMap(readFrontMatter(source, reasoningPlace, "a reasoning function"), (front) => {
    const value = front.value
    const issues: Array<SourceIssue> = [...front.issues]
    const description = value.description
    issues.push(...descriptionIssues(front.issueAt, description))
    const model = value.model
    const slash = typeof model === "string" ? model.indexOf("/") : -1
    if (model !== undefined && (typeof model !== "string" || slash <= 0 || slash === model.length - 1))
      issues.push(
        front.issueAt(
          "/model",
          `expected provider/model, such as anthropic/claude-sonnet-4-5, found ${describeValue(model)}; list_models shows the models this runtime offers`
        )
      )
    const settings = settingsOf(front, isMapping(value.config) ? value.config : {}, issues)
    const input = isMapping(value.input) ? value.input : {}
    const output = isMapping(value.output) ? value.output : {}
    if (input.schema !== undefined) {
      const broken = schemaIssues(front.issueAt, "/input/schema", input.schema)
      issues.push(...broken)
      if (broken.length === 0 && !(isMapping(input.schema) && input.schema.type === "object"))
        issues.push(
          front.issueAt("/input/schema", 'a reasoning function\'s input schema has the root "type": "object"')
        )
    }
    if (input.default !== undefined) issues.push(...defaultIssues(front, input.default, input.schema))
    const format = output.format ?? "text"
    if (format !== "text" && format !== "json")
      issues.push(front.issueAt("/output/format", `expected text or json, found ${describeValue(format)}`))
    const shape = output.shape
    if (shape !== undefined && !outputShapes.includes(shape as OutputShape))
      issues.push(
        front.issueAt("/output/shape", `expected one of ${outputShapes.join(", ")}, found ${describeValue(shape)}`)
      )
    if (shape !== undefined && output.schema !== undefined)
      issues.push(front.issueAt("/output/shape", "write output.shape or output.schema, not both"))
    if (output.schema !== undefined) issues.push(...schemaIssues(front.issueAt, "/output/schema", output.schema))
    if (format === "json" && output.schema === undefined && shape === undefined)
      issues.push(front.issueAt("/output", "output.format json needs output.schema, the schema of the answer"))
    if (format === "text" && output.schema !== undefined)
      issues.push(front.issueAt("/output/schema", "a text answer takes no schema; write format: json to ask for JSON"))
    if (value.provider_options !== undefined)
      for (const issue of providerOptionIssues(value.provider_options))
        issues.push(front.issueAt(`/provider_options${issue.pointer}`, issue.message))
    const tools: Array<ToolReference> = []
    if (value.tools !== undefined) {
      if (!Array.isArray(value.tools))
        issues.push(front.issueAt("/tools", `expected a list of server/tool, found ${describeValue(value.tools)}`))
      else
        value.tools.forEach((text, index) => {
          const reference = readToolReference(text)
          if (reference === undefined)
            issues.push(
              front.issueAt(
                `/tools/${index}`,
                `expected server/tool or server/*, the server 1 to 32 lowercase letters, digits and hyphens, found ${describeValue(text)}`
              )
            )
          else if (tools.some((tool) => tool.server === reference.server && tool.tool === reference.tool))
            issues.push(front.issueAt(`/tools/${index}`, `${String(text)} is named twice`))
          else tools.push(reference)
        })
    }
    let prompt: ReasoningDocument["prompt"] | undefined
    if (front.body.trim() === "")
      issues.push(front.bodyIssue(1, 1, "the body holds the prompt the model is given; write it there"))
    else {
      const checked = checkTemplate(front.body, promptVariables, promptEngine)
      for (const issue of checked.issues) issues.push(front.bodyIssue(issue.line, issue.column, issue.message))
      if (checked.template !== undefined) {
        for (const issue of promptIssues(checked.template)) issues.push(front.bodyIssue(issue.line, 1, issue.message))
        for (const issue of undeclaredFields(checked.template, input.schema))
          issues.push(front.bodyIssue(issue.line, issue.column, issue.message))
        prompt = { text: front.body, template: checked.template }
      }
    }
    if (issues.length > 0 || prompt === undefined) return Either.left(finishIssues(issues))
    const named = typeof shape === "string" ? (shape as OutputShape) : undefined
    const outputSchema = output.schema ?? (named === undefined ? undefined : outputShapeSchemas[named])
    const warnings =
      output.schema === undefined
        ? []
        : portabilityFindings(output.schema)
            .slice(0, warningBound)
            .map((finding) => sourceIssueWords(front.issueAt(`/output/schema${finding.pointer}`, finding.message)))
    return Either.right({
      model: model as string,
      settings,
      ...(input.schema === undefined ? {} : { inputSchema: input.schema }),
      ...(isMapping(input.default) ? { inputDefault: input.default } : {}),
      ...(isMapping(value.provider_options) ? { providerOptions: value.provider_options } : {}),
      output: outputSchema === undefined ? { format: "text" } : { format: "json", schema: outputSchema },
      tools,
      prompt,
      document: {
        ...(typeof description === "string" ? { description } : {}),
        ...(input.schema === undefined ? {} : { inputSchema: input.schema }),
        ...(outputSchema === undefined ? {} : { outputSchema }),
        ...(named === undefined ? {} : { shape: named }),
        ...(value.page === undefined ? {} : { page: value.page }),
        warnings,
        finishesLater: false,
        callsTools: tools.length > 0
      }
    })
  })
