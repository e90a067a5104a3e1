import type { Effect } from "effect"
import type { WorkflowDocument } from "../../formats/workflow/WorkflowDocument.js"
import type { ExpressionEvaluator } from "../expressions/ExpressionEvaluator.js"
import type { EngineOutput } from "./EngineOutput.js"
import type { StepEntry } from "./StepEntry.js"
import type { StatePatch } from "./statePatch.js"
import type { WorkflowInput } from "./WorkflowInput.js"

/**
 * A workflow run's state between inputs: JSON data the interpreter alone reads and writes, kept by the ledger as a
 * patch per applied input (workflow-format.md §16.1). The host reads it only through the functions of `runState.ts`.
 */
export type RunStateData = { readonly [key: string]: unknown }

/** What applying one input did: the state after it, the steps it moved, and what the world must do next. */
export interface Applied {
  readonly state: RunStateData
  readonly steps: ReadonlyArray<StepEntry>
  readonly outputs: ReadonlyArray<EngineOutput>
  /** The state change the input records (RFC 6902, from the state given; the whole state for `started`). */
  readonly patch: StatePatch
  /** Ids of the events the input took or emitted, a repeat of which the host must not apply (ADR 0420). */
  readonly seen: ReadonlyArray<string>
}

/**
 * The interpreter (architecture.md, The workflow engine): applies one input to a run's state. Pure but for the
 * expressions, evaluated through `ExpressionEvaluator` with the input's time as the clock. `undefined` state with
 * a `started` input begins the run. Returns `undefined` for a stale input (a late or repeated call answer, the fire
 * of a disarmed timer, an event id a run recorded before ADR 0420 kept in its state): nothing is recorded for it.
 * Since ADR 0420 the host, not the state, keeps the ids of the events a run took (`Applied.seen`) and gives no
 * repeat to the interpreter.
 */
export type Interpret = (
  document: WorkflowDocument,
  state: RunStateData | undefined,
  input: WorkflowInput
) => Effect.Effect<Applied | undefined, never, ExpressionEvaluator>
