import type { Duration } from "./Duration.js"
import type { Expression } from "./Expression.js"

/** How the delay grows from one retry to the next (workflow-format.md §9.3). */
export type Backoff = "constant" | "linear" | "exponential"

/**
 * A retry policy (workflow-format.md §9.3), written under `catch.retry` or resolved at save from the named entry
 * of `use.retries`. Absent limits do not limit.
 */
export interface RetryPolicy {
  readonly name?: string
  readonly delay: Duration
  readonly backoff: Backoff
  readonly jitter?: { readonly from: Duration; readonly to: Duration }
  readonly limit: {
    /** Retries after the first attempt. */
    readonly attemptCount?: number
    /** Time limit of each attempt. */
    readonly attemptDuration?: Duration
    /** No retry starts once this much time has passed since the first attempt began. */
    readonly duration?: Duration
  }
  readonly when?: Expression
  readonly exceptWhen?: Expression
}
