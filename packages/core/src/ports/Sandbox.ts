import { Context, Data, type Effect } from "effect"

/** A TypeScript module a sandbox checks or runs, and the document line it starts on (so issues name it). */
export interface SandboxProgram {
  readonly source: string
  readonly firstLine: number
}

/** One run of a program's default export over an input. */
export interface SandboxRun extends SandboxProgram {
  readonly input: unknown
  /** What `Date.now()` and `new Date()` return: the run's start, in milliseconds since the epoch. */
  readonly now: number
  /** When the run must have ended, in milliseconds since the epoch (wall clock, waiting included). */
  readonly deadline: number
}

/** What a run gave: its output as JSON data, its size as JSON, and the work it took in checkpoints. */
export interface SandboxResult {
  readonly output: unknown
  readonly outputBytes: number
  readonly work: number
}

/** A save-time check: the program and the declarations of the types it may use (`Input`, `Output`, `Json`). */
export interface SandboxCheck extends SandboxProgram {
  readonly declarations: string
}

/** One finding of the checker, at a document line and a code-point column. */
export interface ProgramIssue {
  readonly line: number
  readonly column: number
  readonly message: string
}

/** The program cannot give a result: it raised, ran out of work or memory, or returned what is not JSON. */
export class ProgramUnworkable extends Data.TaggedError("ProgramUnworkable")<{
  readonly detail: string
  readonly work: number
}> {}

/** The deadline passed, while waiting for a worker or while running. */
export class SandboxDeadline extends Data.TaggedError("SandboxDeadline")<{ readonly detail: string }> {}

/** The sandbox itself broke (a worker crashed or answered nonsense): a defect of the runtime, not the program. */
export class SandboxBroke extends Data.TaggedError("SandboxBroke")<{ readonly detail: string }> {}

/** No checker was ready to take the check in time. */
export class CheckerUnavailable extends Data.TaggedError("CheckerUnavailable")<{ readonly detail: string }> {}

/** A ready checker did not finish within its bound. */
export class CheckerTimedOut extends Data.TaggedError("CheckerTimedOut")<{ readonly seconds: number }> {}

/**
 * Runs and checks programs with work, time and memory bounds (architecture.md, Ports). `run` calls the default
 * export in a fresh context; `check` type-checks a program at save against its declarations and the sandbox's
 * library, and applies the structural rules.
 */
export class Sandbox extends Context.Tag("@runledger/core/Sandbox")<
  Sandbox,
  {
    readonly run: (run: SandboxRun) => Effect.Effect<SandboxResult, ProgramUnworkable | SandboxDeadline | SandboxBroke>
    readonly check: (
      check: SandboxCheck
    ) => Effect.Effect<ReadonlyArray<ProgramIssue>, CheckerUnavailable | CheckerTimedOut | SandboxBroke>
  }
>() {}
