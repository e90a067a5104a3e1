/** The bounds of one computation run (function-formats.md §4.6, decision W11). */
export interface SandboxBounds {
  /** Interrupt-handler calls a run may take; QuickJS calls the handler once per 10,000 polls (calls, jumps). */
  readonly work: number
  /** Bytes the QuickJS runtime may allocate. */
  readonly memoryBytes: number
  /** Bytes of QuickJS stack (≈5,459 self-calls at 1 MiB). */
  readonly stackBytes: number
  /** The largest output, in UTF-8 bytes as JSON. */
  readonly outputBytes: number
}

/**
 * The bounds a computation run has unless the operator sets others. The work budget is 10,000 checkpoints, not
 * W11's 20,000: on this QuickJS build a checkpoint costs 0.15–0.35 ms, so 20,000 comes too near the 10 s deadline on
 * a loaded machine to end an endless loop the same way every time (decision 0145).
 */
export const computationBounds: SandboxBounds = {
  work: 10_000,
  memoryBytes: 256 * 1024 * 1024,
  stackBytes: 1024 * 1024,
  outputBytes: 1_048_320
}
