import type { ProgramIssue, SandboxProgram } from "../ports/Sandbox.js"
import type { RunOutcome } from "./runProgram.js"
import type { SandboxBounds } from "./sandboxBounds.js"

/** What a worker posts once it has loaded what it needs and can take work. */
export const workerReady = "ready"

/** A run a run worker carries out. */
export interface RunJob {
  readonly program: SandboxProgram
  readonly inputJson: string
  readonly now: number
  readonly deadline: number
  readonly bounds: SandboxBounds
}

/** A run worker's answer: how the run ended, that its deadline passed before it started, or that the engine broke. */
export type RunAnswer =
  | RunOutcome
  | { readonly _tag: "NotStarted" }
  | { readonly _tag: "Broke"; readonly detail: string }

/** A check a checker worker carries out. */
export interface CheckJob {
  readonly program: SandboxProgram
  readonly declarations: string
}

/** A checker worker's answer. */
export type CheckAnswer =
  | { readonly _tag: "Checked"; readonly issues: ReadonlyArray<ProgramIssue> }
  | { readonly _tag: "Broke"; readonly detail: string }
