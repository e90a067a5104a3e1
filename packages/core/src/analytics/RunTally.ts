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
  /** What the run adds to its day's bucket as the bucket stands, when it counts there (ADR 0178). */
  readonly counted?: Contribution
}

/** What one ended run adds to the bucket of its day and definition. */
export interface Contribution {
  readonly status: "succeeded" | "failed" | "rejected"
  readonly tokens: Tokens
  readonly cost_usd: number | null
  readonly duration_ms: number | null
}

/** What a run adds to its bucket: nothing while it goes on or before it was seen to start. */
export const contributionOf = (tally: RunTally | undefined): Contribution | undefined =>
  tally === undefined || tally.status === "started"
    ? undefined
    : { status: tally.status, tokens: tally.tokens, cost_usd: tally.cost_usd, duration_ms: tally.duration_ms }
