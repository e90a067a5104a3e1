import type { AnalyticsWindow } from "./AnalyticsWindow.js"
import type { DayBucket } from "./DayBucket.js"
import { mergedBins } from "./DurationHistogram.js"
import { nearestRank } from "./nearestRank.js"
import type { PlaybookAnalytics } from "./PlaybookAnalytics.js"
import { addTokens, noTokens } from "./RunTally.js"

/** A sum of dollars without the noise of binary fractions. */
const dollars = (cost: number): number => Math.round(cost * 1e12) / 1e12

/** The runs, tokens, cost and durations of the buckets' runs. */
const periodOf = (buckets: ReadonlyArray<DayBucket>) => {
  const bins = mergedBins(buckets.map((bucket) => bucket.durations))
  const sum = (count: (bucket: DayBucket) => number) => buckets.reduce((total, bucket) => total + count(bucket), 0)
  const costed = sum((bucket) => bucket.costed)
  const p50 = nearestRank(bins, 50)
  const p95 = nearestRank(bins, 95)
  return {
    runs: {
      total: sum((bucket) => bucket.runs.total),
      succeeded: sum((bucket) => bucket.runs.succeeded),
      failed: sum((bucket) => bucket.runs.failed),
      rejected: sum((bucket) => bucket.runs.rejected)
    },
    tokens: buckets.reduce((tokens, bucket) => addTokens(tokens, bucket.tokens), noTokens),
    cost_usd: costed === 0 ? null : dollars(sum((bucket) => (bucket.costed === 0 ? 0 : bucket.cost_usd))),
    duration_ms: p50 === undefined || p95 === undefined ? null : { p50, p95 }
  }
}

/** Groups buckets by a key, in the order the keys first appear. */
const groupBy = (buckets: ReadonlyArray<DayBucket>, key: (bucket: DayBucket) => string) => {
  const groups = new Map<string, Array<DayBucket>>()
  for (const bucket of buckets) {
    const group = groups.get(key(bucket))
    if (group === undefined) groups.set(key(bucket), [bucket])
    else group.push(bucket)
  }
  return groups
}

/** Orders two texts. */
const byText = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0)

/**
 * What the runs of a window did (HTTP "Analytics"), from the buckets of its days: every day of the window present
 * oldest first, and each definition's share, the most runs first, then by type and name.
 */
export const analyticsOf = (window: AnalyticsWindow, buckets: ReadonlyArray<DayBucket>): PlaybookAnalytics => {
  const within = buckets.filter((bucket) => bucket.day >= window.from && bucket.day <= window.to)
  const byDay = groupBy(within, (bucket) => bucket.day)
  const byFunction = [...groupBy(within, (bucket) => `${bucket.type}/${bucket.name}`).values()].map((group) => {
    const { runs, tokens, cost_usd } = periodOf(group)
    return { type: group[0].type, name: group[0].name, runs: runs.total, tokens, cost_usd }
  })
  return {
    days: window.days.length,
    ...periodOf(within),
    by_day: window.days.map((day) => ({ day, ...periodOf(byDay.get(day) ?? []) })),
    by_function: byFunction.sort(
      (left, right) => right.runs - left.runs || byText(left.type, right.type) || byText(left.name, right.name)
    )
  }
}
