import { Context, Effect, Layer, Queue } from "effect"
import { RuntimeConfig } from "../../config/RuntimeConfig.js"
import type { WorkflowDocument } from "../../formats/workflow/WorkflowDocument.js"
import { ExpressionEvaluator } from "../expressions/ExpressionEvaluator.js"
import { workflowSettingsOf } from "../workflowSettings.js"
import { makeRunLocks, type RunLocks } from "./runLocks.js"

/** The most workflow documents a runtime keeps read, by definition version. */
const documentsKept = 512

/**
 * What the workflow engine shares across runs of one runtime: the expression evaluator, the documents it has read
 * (a version's source never changes, so a read document is kept by version), the per-run locks that apply one
 * input at a time within this process, and the longest a run may go on.
 */
export class WorkflowEngine extends Context.Tag("@runledger/core/WorkflowEngine")<
  WorkflowEngine,
  {
    readonly evaluator: ExpressionEvaluator["Type"]
    readonly documents: Map<string, WorkflowDocument>
    readonly locks: RunLocks
    readonly maxRunMilliseconds: number
    /** The most open calls among all runs under one root run (workflow-format.md §7.3; ADR 0296). */
    readonly maxOpenCalls: number
    /** `$runtime.version`: the runtime's version as it introduces itself. */
    readonly runtimeVersion: string
    /**
     * Wakes the host's timer loop to read the due view again: a drive set a timer, or left a run due (it stopped
     * after its bound of inputs, or after conflicts).
     */
    readonly nudges: Queue.Queue<void>
    /**
     * When the host's timer loop next looks at the due view by itself (milliseconds since the epoch); infinite while
     * it is awake, so a timer set meanwhile nudges it; minus infinity while it does not run (another instance holds
     * the sweeps lease), so nothing nudges it.
     */
    readonly timerLoop: { wakesAt: number }
  }
>() {
  /** The engine on the runtime's expression evaluator and settings. */
  static readonly layer: Layer.Layer<WorkflowEngine, never, ExpressionEvaluator | RuntimeConfig> = Layer.effect(
    WorkflowEngine,
    Effect.gen(function* () {
      const settings = yield* RuntimeConfig
      return {
        evaluator: yield* ExpressionEvaluator,
        documents: new Map(),
        locks: makeRunLocks(),
        ...(yield* workflowSettingsOf(settings)),
        runtimeVersion: settings.serverVersion,
        nudges: yield* Queue.sliding<void>(1),
        timerLoop: { wakesAt: Number.NEGATIVE_INFINITY }
      }
    })
  )
}

/** The origin a drive's appends carry: the drive carries on with what they record, so the host leaves them alone. */
export const workflowDriveOrigin = "workflow-drive"

/**
 * The origin of a drive's append that set its run's next timer, with the timer's time: the drive carries on with
 * the rest, and the host of the instance whose timer loop runs (any instance: ADR 0402) nudges the loop if the
 * timer is due before the loop would look by itself (ADR 0279).
 */
export const workflowTimerOrigin = (dueAt: number): string => `${timerOriginPrefix}${dueAt}`

/** The time of the timer a drive's append set, if its origin says it set one. */
export const timerOfOrigin = (origin: string | undefined): number | undefined =>
  origin?.startsWith(timerOriginPrefix) ? Number(origin.slice(timerOriginPrefix.length)) : undefined

const timerOriginPrefix = "workflow-drive-timer@"

/** Keeps a read document by its version key, forgetting the oldest beyond the bound. */
export const keepDocument = (documents: Map<string, WorkflowDocument>, key: string, document: WorkflowDocument) => {
  documents.set(key, document)
  if (documents.size > documentsKept) documents.delete(documents.keys().next().value!)
}
