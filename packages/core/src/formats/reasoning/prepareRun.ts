import { Either } from "effect"
import { invalidAt, invalidInput, type Rejection, reject } from "../../domain/Rejection.js"
import type { ModelSettings } from "../../models/ModelSettings.js"
import { type ResolvedModel, resolveModel } from "../../models/resolveModel.js"
import type { FormatRun } from "../DefinitionFormat.js"
import { momentsOf } from "../interaction/renderTemplate.js"
import { schemaValidator } from "../jsonSchema/SchemaValidator.js"
import { optionsFor } from "./optionsFor.js"
import { type ReasoningDocument, readReasoning } from "./readReasoning.js"
import { type RenderedPrompt, renderPrompt } from "./renderPrompt.js"

/** A reasoning run ready for its first model call: its document, its model and options, and its prompt. */
export interface PreparedRun {
  readonly document: ReasoningDocument
  readonly model: ResolvedModel
  readonly providerOptions: Readonly<Record<string, unknown>> | undefined
  readonly prompt: RenderedPrompt
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** The document line the body starts on: the line after the closing `---`. */
const bodyLineOf = (source: string): number =>
  source.split("\n").findIndex((line, index) => index > 0 && /^---\r?$/.test(line)) + 2

/**
 * Prepares a reasoning run before anything is called (function-formats.md §2.7 steps 1 and 3): the model resolved
 * to a configured, allowed provider and the options it reads; the input an object, its defaults merged under it and
 * checked against its schema (`input_schema`); the prompt rendered over `input`, `today` and `now`.
 */
export const prepareRun = (run: FormatRun, settings: ModelSettings): Either.Either<PreparedRun, Rejection> =>
  Either.gen(function* () {
    const document = yield* Either.mapLeft(readReasoning(run.source), () =>
      reject("internal", "The saved document of this version no longer reads.")
    )
    const model = yield* resolveModel(settings, document.model)
    const providerOptions = yield* optionsFor(model.provider, document.providerOptions)
    if (run.input !== undefined && run.input !== null && !isMapping(run.input))
      return yield* Either.left(invalidAt("/input", "A reasoning function takes a JSON object as its input."))
    const input = { ...document.inputDefault, ...((run.input ?? {}) as Record<string, unknown>) }
    const validate =
      document.inputSchema === undefined ? undefined : Either.getOrUndefined(schemaValidator(document.inputSchema))
    const issues = validate?.(input, "/input") ?? []
    if (issues.length > 0) return yield* Either.left(invalidInput(issues, "input_schema"))
    const prompt = yield* Either.mapLeft(
      renderPrompt(document.prompt, { input, ...momentsOf(run.startedAt) }, bodyLineOf(run.source)),
      (refusal) => invalidAt("/input", refusal.words)
    )
    return { document, model, providerOptions, prompt }
  })
