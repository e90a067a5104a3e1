import type { CallCause } from "./RunStateShape.js"

/**
 * The `cause` of a workflow run's rejection (workflow-format.md §14): the step whose uncaught error ended the run
 * and, when a call raised that error, the callee's ending. The engine settles it; `run_rejected` records it.
 */
export type RejectionCause = { readonly step: string } & Partial<CallCause>
