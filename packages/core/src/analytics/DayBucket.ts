import { countDuration, histogramOf, type StoredHistogram, storedHistogram } from "./DurationHistogram.js"
import { addTokens, type Contribution, noTokens, type Tokens } from "./RunTally.js"

/** The runs that ended, by how they ended, and their total. */
export interface RunCounts {
  readonly total: number
  readonly succeeded: number
  readonly failed: number
  readonly rejected: number
}

/**
 * What the ended runs of one definition did, their durations aside: their count by how they ended, their tokens,
 * the sum of the costs recorded and how many runs recorded one.
 */
export interface DefinitionCounts {
  readonly type: string
  readonly name: string
  readonly runs: RunCounts
  readonly tokens: Tokens
  readonly cost_usd: number
  /** How many of the runs recorded a cost: cost_usd means something only when this is above 0. */
  readonly costed: number
}

/**
 * What the ended runs of one definition that first started on one UTC day did (ADR 0178): their counts, and their
 * durations.
 */
export interface DayBucket extends DefinitionCounts {
  readonly day: string
  readonly durations: StoredHistogram
}

/** The counts of a definition no run counts in yet. */
export const noCounts = (type: string, name: string): DefinitionCounts => ({
  type,
  name,
  runs: { total: 0, succeeded: 0, failed: 0, rejected: 0 },
  tokens: noTokens,
  cost_usd: 0,
  costed: 0
})

/** A bucket no run counts in yet. */
export const emptyBucket = (day: string, type: string, name: string): DayBucket => ({
  day,
  ...noCounts(type, name),
  durations: ""
})

/** Scales token counts by 1 or -1. */
const signed = (tokens: Tokens, sign: 1 | -1): Tokens => ({
  input: sign * tokens.input,
  output: sign * tokens.output,
  cached: sign * tokens.cached
})

/** Counts with a run's contribution added (`sign` 1) or taken out again (`sign` -1). */
export const withCounts = <C extends DefinitionCounts>(counts: C, contribution: Contribution, sign: 1 | -1): C => {
  const costed = contribution.cost_usd === null ? counts.costed : counts.costed + sign
  return {
    ...counts,
    runs: {
      ...counts.runs,
      total: counts.runs.total + sign,
      [contribution.status]: counts.runs[contribution.status] + sign
    },
    tokens: addTokens(counts.tokens, signed(contribution.tokens, sign)),
    // With no cost left the sum restarts at 0, so no residue of adding and taking out binary fractions remains.
    cost_usd:
      contribution.cost_usd === null
        ? counts.cost_usd
        : costed === 0
          ? 0
          : counts.cost_usd + sign * contribution.cost_usd,
    costed
  }
}

/** Durations with a run's duration added (`sign` 1) or taken out again (`sign` -1), when it has one, as stored. */
export const withDuration = (durations: StoredHistogram, contribution: Contribution, sign: 1 | -1): StoredHistogram =>
  contribution.duration_ms === null
    ? durations
    : storedHistogram(countDuration(histogramOf(durations), contribution.duration_ms, sign))

/** The bucket with a run's contribution added (`sign` 1) or taken out again (`sign` -1). */
export const withContribution = (bucket: DayBucket, contribution: Contribution, sign: 1 | -1): DayBucket => ({
  ...withCounts(bucket, contribution, sign),
  durations: withDuration(bucket.durations, contribution, sign)
})
