import { Effect, Either } from "effect"
import { invalidInput } from "../../domain/Rejection.js"
import { driveStarted } from "../../workflow/run/driveRun.js"
import { WorkflowEngine } from "../../workflow/run/WorkflowEngine.js"
import { triggerViewOf } from "../../workflow/triggers/TriggerView.js"
import type { DefinitionFormat, ReadDocument, SourceIssue } from "../DefinitionFormat.js"
import { schemaValidator } from "../jsonSchema/SchemaValidator.js"
import { readWorkflow } from "./readWorkflow.js"
import type { WorkflowDocument } from "./WorkflowDocument.js"
import { workflowUses } from "./workflowUses.js"

/** The most documents the format keeps read, by source text (a run reads its version's source again). */
const documentsKept = 128

/**
 * The workflow format (workflow-format.md): reads and checks documents at save (every check of §13, expressions
 * included), and starts runs — the input schema first (`invalid_input`, kind `input_schema`, nothing runs), then the
 * run goes on within its request through the engine, which applies its `started` input and drives it to its first
 * wait (it may end there).
 */
export const workflowFormat = (engine: WorkflowEngine["Type"]): DefinitionFormat => {
  const kept = new Map<string, Either.Either<WorkflowDocument, ReadonlyArray<SourceIssue>>>()
  const read = (source: string) => {
    let document = kept.get(source)
    if (document === undefined) {
      document = readWorkflow(source, { maxRunMilliseconds: engine.maxRunMilliseconds })
      kept.set(source, document)
      if (kept.size > documentsKept) kept.delete(kept.keys().next().value!)
    }
    return document
  }
  return {
    type: "workflow",
    read: (source) =>
      Either.map(
        read(source),
        (document): ReadDocument => ({
          ...(document.description === undefined ? {} : { description: document.description }),
          ...(document.inputSchema === undefined ? {} : { inputSchema: document.inputSchema }),
          ...(document.outputSchema === undefined ? {} : { outputSchema: document.outputSchema }),
          ...(document.shape === undefined ? {} : { shape: document.shape }),
          ...(document.triggers.length === 0 ? {} : { triggers: document.triggers.map(triggerViewOf) }),
          uses: workflowUses(document),
          warnings: [],
          finishesLater: true,
          callsTools: false
        })
      ),
    checkAtSave: () => Effect.succeed([]),
    run: (run) =>
      Effect.sync(() => {
        const document = read(run.source)
        if (Either.isRight(document) && document.right.inputSchema !== undefined) {
          const validate = Either.getOrUndefined(schemaValidator(document.right.inputSchema))
          const issues = validate?.(run.input, "/input") ?? []
          if (issues.length > 0) return { _tag: "Rejected", rejection: invalidInput(issues, "input_schema") } as const
        }
        return {
          _tag: "Started",
          goesOn: (started) => Effect.provideService(driveStarted(started), WorkflowEngine, engine)
        } as const
      })
  }
}
