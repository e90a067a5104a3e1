import type { RejectionCause } from "./RejectionCause.js"
import type { CancelKind, RunEvent } from "./WorkflowInput.js"

/** How a workflow run ends, as the interpreter settles it (workflow-format.md §14). */
export type RunEnding =
  | { readonly status: "succeeded"; readonly output: unknown }
  | {
      readonly status: "rejected"
      readonly reason: string
      readonly kind?: string
      readonly because?: string
      readonly detail: string
      /** The step whose uncaught error ended the run (seed: `cause` on a workflow rejection). */
      readonly cause?: RejectionCause
    }

/** A literal filter a listen registers for playbook events (only filters whose `type` is written literally). */
export interface ListenFilter {
  readonly reference: string
  readonly type: string
}

/**
 * What an applied input asks the world to do, carried out after its fact is appended, each idempotent by its key
 * (architecture.md): start or cancel a called run, arm or disarm a timer, open or close a listen for playbook
 * events, publish an emitted event, and end the run.
 */
export type EngineOutput =
  | {
      readonly kind: "start_call"
      /** The call key: `<run id> <task reference> <task run>`. */
      readonly key: string
      /** The callee's run id, UUIDv5 of the call key. */
      readonly runId: string
      readonly reference: string
      readonly type: string
      readonly name: string
      readonly input: unknown
      /** When the wait passes; the same input arms the call's deadline timer (an `arm_timer` output) due then. */
      readonly deadlineAt: number
    }
  | { readonly kind: "cancel_call"; readonly key: string; readonly runId: string; readonly cancelKind: CancelKind }
  | { readonly kind: "arm_timer"; readonly id: string; readonly dueAt: number }
  | { readonly kind: "cancel_timer"; readonly id: string }
  | { readonly kind: "listen"; readonly key: string; readonly filters: ReadonlyArray<ListenFilter> }
  | { readonly kind: "unlisten"; readonly key: string }
  | {
      readonly kind: "emit"
      /** UUIDv5 of the emit's call key, so a resumed run emits once. */
      readonly id: string
      readonly event: RunEvent
    }
  | { readonly kind: "settle"; readonly ending: RunEnding }

/** The kinds of output, as `workflow_input_applied` lists them (`output_kinds`). */
export type EngineOutputKind = EngineOutput["kind"]
