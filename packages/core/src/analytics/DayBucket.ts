import { countDuration, type DurationHistogram } from "./DurationHistogram.js"
import { addTokens, type Contribution, noTokens, type Tokens } from "./RunTally.js"

/** The runs that ended, by how they ended, and their total. */
export interface RunCounts {
  readonly total: number
  readonly succeeded: number
  readonly failed: number
  readonly rejected: number
}

/**
 * What the ended runs of one definition that first started on one UTC day did (ADR 0178): their count by how they
 * ended, their tokens, the sum of the costs recorded and how many runs recorded one, and their durations.
 */
export interface DayBucket {
  readonly day: string
  readonly type: string
  readonly name: string
  readonly runs: RunCounts
  readonly tokens: Tokens
  readonly cost_usd: number
  /** How many of the runs recorded a cost: cost_usd means something only when this is above 0. */
  readonly costed: number
  readonly durations: DurationHistogram
}

/** A bucket no run counts in yet. */
export const emptyBucket = (day: string, type: string, name: string): DayBucket => ({
  day,
  type,
  name,
  runs: { total: 0, succeeded: 0, failed: 0, rejected: 0 },
  tokens: noTokens,
  cost_usd: 0,
  costed: 0,
  durations: {}
})

/** Scales token counts by 1 or -1. */
const signed = (tokens: Tokens, sign: 1 | -1): Tokens => ({
  input: sign * tokens.input,
  output: sign * tokens.output,
  cached: sign * tokens.cached
})

/** The bucket with a run's contribution added (`sign` 1) or taken out again (`sign` -1). */
export const withContribution = (bucket: DayBucket, contribution: Contribution, sign: 1 | -1): DayBucket => {
  const costed = contribution.cost_usd === null ? bucket.costed : bucket.costed + sign
  return {
    ...bucket,
    runs: {
      ...bucket.runs,
      total: bucket.runs.total + sign,
      [contribution.status]: bucket.runs[contribution.status] + sign
    },
    tokens: addTokens(bucket.tokens, signed(contribution.tokens, sign)),
    // With no cost left the sum restarts at 0, so no residue of adding and taking out binary fractions remains.
    cost_usd:
      contribution.cost_usd === null
        ? bucket.cost_usd
        : costed === 0
          ? 0
          : bucket.cost_usd + sign * contribution.cost_usd,
    costed,
    durations:
      contribution.duration_ms === null
        ? bucket.durations
        : countDuration(bucket.durations, contribution.duration_ms, sign)
  }
}
