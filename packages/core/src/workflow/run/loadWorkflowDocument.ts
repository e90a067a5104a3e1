import { Effect, Either } from "effect"
import { type DefinitionVersionData, definitionStream } from "../../definitions/definitionFacts.js"
import { sourceIssueWords } from "../../formats/DefinitionFormat.js"
import { readWorkflow } from "../../formats/workflow/readWorkflow.js"
import type { WorkflowDocument } from "../../formats/workflow/WorkflowDocument.js"
import { Ledger } from "../../ports/Ledger.js"
import type { StoreUnavailable } from "../../ports/StoreUnavailable.js"
import { keepDocument, WorkflowEngine } from "./WorkflowEngine.js"

/** Which version of which workflow a run carries out. */
export interface WorkflowVersion {
  readonly org: string
  readonly playbook: string
  readonly name: string
  readonly version: number
}

/**
 * The document of the workflow version a run keeps until it ends (workflow-format.md §1.1), read once per
 * process from the version's fact on the definition's stream and kept by version. A stored version that no longer
 * reads (a newer runtime refusing it) is a defect of the runtime, not of the run's input.
 */
export const loadWorkflowDocument = (
  version: WorkflowVersion
): Effect.Effect<WorkflowDocument, StoreUnavailable, Ledger | WorkflowEngine> =>
  Effect.gen(function* () {
    const engine = yield* WorkflowEngine
    const key = `${version.org}/${version.playbook}/${version.name}@${version.version}`
    const kept = engine.documents.get(key)
    if (kept !== undefined) return kept
    const ledger = yield* Ledger
    const facts = yield* ledger.readStream(definitionStream(version.org, version.playbook, "workflow", version.name))
    const saved = facts.find(
      (fact) =>
        (fact.type === "definition_created" || fact.type === "definition_updated") &&
        (fact.data as DefinitionVersionData).version === version.version
    )
    if (saved === undefined) return yield* Effect.die(new Error(`The workflow version ${key} has no saved document.`))
    const read = readWorkflow((saved.data as DefinitionVersionData).source, {
      maxRunMilliseconds: engine.maxRunMilliseconds
    })
    if (Either.isLeft(read))
      return yield* Effect.die(
        new Error(`The workflow version ${key} no longer reads: ${read.left.map(sourceIssueWords).join(" ")}`)
      )
    keepDocument(engine.documents, key, read.right)
    return read.right
  })
