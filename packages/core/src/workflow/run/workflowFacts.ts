import type { EngineOutputKind } from "../engine/EngineOutput.js"
import type { StepEntry } from "../engine/StepEntry.js"
import type { StatePatch } from "../engine/statePatch.js"
import type { WorkflowInputKind } from "../engine/WorkflowInput.js"

/** A call an input started: what the engine needs to start its callee again after a crash. */
export interface StartingCall {
  readonly key: string
  readonly run_id: string
  readonly reference: string
  readonly type: string
  readonly name: string
  readonly input: unknown
  readonly deadline_at: number
}

/** The fact a workflow run records for each input it took (workflow-format.md §16.1). */
export const workflowInputApplied = "workflow_input_applied"

/**
 * `workflow_input_applied`: the receipt of one input (its kind, key and time; a call's answer status and the
 * rejection's kind/because; a sent event's type), the steps it moved, the kinds of what the run does next, and —
 * kept for the engine, never shown — the state change as a JSON Patch and the run's next due time.
 */
export interface WorkflowInputApplied {
  readonly run_id: string
  readonly input: { readonly kind: WorkflowInputKind; readonly key: string }
  readonly answer?: { readonly status: string; readonly kind?: string; readonly because?: string }
  readonly event_type?: string
  readonly step_count: number
  readonly steps: ReadonlyArray<StepEntry>
  readonly output_kinds: ReadonlyArray<EngineOutputKind>
  /** The state change (RFC 6902) from the state before this input; the whole state for `started`. */
  readonly patch: StatePatch
  /** When the run's earliest armed timer is due, in ISO 8601; absent when none is armed. */
  readonly next_due_at?: string
  /** The call keys this input answered, so their arrival marks are cleared. */
  readonly answered?: ReadonlyArray<string>
  /** The calls still open after this input: only their callees' endings mark the run due. */
  readonly open_calls: ReadonlyArray<string>
  /** How many more calls (or fewer, negative) the run has open after this input than before; absent when as many. */
  readonly open_call_change?: number
  /** The calls this input started, kept until their callee records its start (so a crash starts them again). */
  readonly starting?: ReadonlyArray<StartingCall>
  /**
   * The run's open listens registered for playbook events, by listen key, with the literal types each hears
   * (ADR 0295); facts recorded by earlier versions give only the types, as `listening`.
   */
  readonly listens?: Readonly<Record<string, ReadonlyArray<string>>>
  readonly listening?: ReadonlyArray<string>
  /** Ids of the events this input took or emitted (an offered one by its record id too): a repeat is not applied. */
  readonly seen?: ReadonlyArray<string>
  readonly ended: boolean
}

/** The fields of `workflow_input_applied` the engine keeps for itself: never shown by an event read. */
export const hiddenInputFields: ReadonlyArray<keyof WorkflowInputApplied> = [
  "patch",
  "steps",
  "next_due_at",
  "answered",
  "open_calls",
  "open_call_change",
  "starting",
  "listens",
  "listening",
  "seen",
  "ended"
]
