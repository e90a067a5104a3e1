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

/** The bounds a computation run has unless the operator sets others. */
export const computationBounds: SandboxBounds = {
  work: 20_000,
  memoryBytes: 256 * 1024 * 1024,
  stackBytes: 1024 * 1024,
  outputBytes: 1_048_320
}
