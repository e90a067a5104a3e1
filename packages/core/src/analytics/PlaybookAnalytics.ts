import { Schema } from "effect"

const Count = Schema.Int.pipe(Schema.nonNegative())

/** The runs that ended, by how they ended, and their total. */
const RunCounts = Schema.Struct({ total: Count, succeeded: Count, failed: Count, rejected: Count })

/** The tokens the models of reasoning functions used; cached is the part of input read from the provider's cache. */
const TokenCounts = Schema.Struct({ input: Count, output: Count, cached: Count })

/** What the runs' model calls cost in US dollars; null when no run recorded a cost. */
const Cost = Schema.NullOr(Schema.Number)

/** The nearest-rank median and 95th percentile of the durations, in milliseconds; null when no run has one. */
const Durations = Schema.NullOr(Schema.Struct({ p50: Schema.Number, p95: Schema.Number }))

/** What a period's runs did. */
const periodFields = { runs: RunCounts, tokens: TokenCounts, cost_usd: Cost, duration_ms: Durations }

/** One day of the window. */
const AnalyticsDay = Schema.Struct({ day: Schema.String, ...periodFields })

/** One definition's ended runs in the window, with their tokens and cost. */
const AnalyticsFunction = Schema.Struct({
  type: Schema.String,
  name: Schema.String,
  runs: Count,
  tokens: TokenCounts,
  cost_usd: Cost
})

/** get_playbook_analytics's output (HTTP "Analytics"). */
export const PlaybookAnalytics = Schema.Struct({
  days: Count,
  ...periodFields,
  by_day: Schema.Array(AnalyticsDay),
  by_function: Schema.Array(AnalyticsFunction)
}).annotations({ identifier: "PlaybookAnalytics" })
export type PlaybookAnalytics = typeof PlaybookAnalytics.Type
