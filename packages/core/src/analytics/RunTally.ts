/** Tokens as analytics counts them: input (cached included), output, and the part of input read from cache. */
export interface Tokens {
  readonly input: number
  readonly output: number
  readonly cached: number
}

/** No tokens. */
export const noTokens: Tokens = { input: 0, output: 0, cached: 0 }

/** Adds two token counts. */
export const addTokens = (left: Tokens, right: Tokens): Tokens => ({
  input: left.input + right.input,
  output: left.output + right.output,
  cached: left.cached + right.cached
})

/** Adds two costs, null standing for none recorded. */
export const addCost = (left: number | null, right: number | null): number | null =>
  left === null ? right : right === null ? left : left + right

/**
 * What analytics keeps of one run (HTTP "Analytics", "How runs are counted"): the day it first started, how its
 * latest attempt stands, its tokens and cost over every attempt that ended, and the duration of its last attempt.
 */
export interface RunTally {
  readonly type: string
  readonly name: string
  /** The UTC day of its first start, `YYYY-MM-DD`. */
  readonly day: string
  /** When its latest attempt started. */
  readonly started_at: string
  readonly status: "started" | "succeeded" | "failed" | "rejected"
  readonly tokens: Tokens
  readonly cost_usd: number | null
  /** What the model calls of the attempt going on cost so far; it counts once the attempt ends. */
  readonly attempt_cost_usd: number | null
  /** From its latest start to its end, when it succeeded or failed. */
  readonly duration_ms: number | null
}
