import { Effect, Either, Option } from "effect"
import { invalidInput, type Rejection, reject } from "../domain/Rejection.js"
import {
  type DefinitionFormat,
  Formats,
  type ReadDocument,
  type SaveWhere,
  sourceIssueWords
} from "../formats/DefinitionFormat.js"
import type { DefinitionType } from "./DefinitionType.js"
import type { DefinitionVersionData } from "./definitionFacts.js"

/** The format of a type, or `unavailable` in words that say this runtime does not run that type yet. */
export const formatOf = (type: DefinitionType): Effect.Effect<DefinitionFormat, Rejection, Formats> =>
  Effect.flatMap(Formats, (formats) =>
    Option.match(Option.fromNullable(formats.get(type)), {
      onNone: () =>
        Effect.fail(
          reject(
            "unavailable",
            `This runtime does not run ${type === "workflow" ? "workflows" : `${type} functions`} yet, so none can be saved or run; the types it runs are listed in the guide start.`
          )
        ),
      onSome: Effect.succeed
    })
  )

/**
 * Reads and checks a source document as a save does: the format's reading, then its save-time checks. Every
 * problem is an issue under `/source`; nothing is saved when there is one. What the save found outside (a lookup's
 * tool mark) joins the document, for the version to record.
 */
export const readSource = (
  type: DefinitionType,
  source: string,
  where?: SaveWhere
): Effect.Effect<ReadDocument, Rejection, Formats> =>
  Effect.gen(function* () {
    const format = yield* formatOf(type)
    const read = format.read(source)
    if (Either.isLeft(read))
      return yield* Effect.fail(
        invalidInput(read.left.map((issue) => ({ pointer: "/source", detail: sourceIssueWords(issue) })))
      )
    const issues = yield* format.checkAtSave(source, read.right, where)
    if (issues.length > 0)
      return yield* Effect.fail(
        invalidInput(issues.map((issue) => ({ pointer: "/source", detail: sourceIssueWords(issue) })))
      )
    const found = format.foundAtSave === undefined ? {} : yield* format.foundAtSave(source, where)
    return found.toolMark === undefined ? read.right : { ...read.right, toolMark: found.toolMark }
  })

/** What a version records of a document that was read, beside the API fields. */
export const versionData = (
  version: number,
  fields: { source: string; overview?: string; diagram?: string },
  document: ReadDocument
): DefinitionVersionData => ({
  version,
  source: fields.source,
  ...(fields.overview === undefined ? {} : { overview: fields.overview }),
  ...(fields.diagram === undefined ? {} : { diagram: fields.diagram }),
  ...(document.description === undefined ? {} : { description: document.description }),
  ...(document.inputSchema === undefined ? {} : { input_schema: document.inputSchema }),
  ...(document.outputSchema === undefined ? {} : { output_schema: document.outputSchema }),
  ...(document.shape === undefined ? {} : { shape: document.shape }),
  ...(document.triggers === undefined ? {} : { triggers: document.triggers }),
  ...(document.toolMark === undefined ? {} : { tool_mark: document.toolMark }),
  ...(document.uses === undefined || document.uses.length === 0 ? {} : { uses: document.uses }),
  warnings: document.warnings,
  finishes_later: document.finishesLater,
  calls_tools: document.callsTools
})
