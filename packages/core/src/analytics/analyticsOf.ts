import type { AnalyticsWindow } from "./AnalyticsWindow.js"
import type { DayBucket, DefinitionCounts } from "./DayBucket.js"
import { type DurationHistogram, histogramOf, nearestRanks } from "./DurationHistogram.js"
import type { PlaybookAnalytics } from "./PlaybookAnalytics.js"
import type { RunDay } from "./RunDay.js"
import { addTokens, noTokens } from "./RunTally.js"

/** One definition's counts on one day. */
export interface DayCounts extends DefinitionCounts {
  readonly day: string
}

/**
 * The runs analytics adds up: each definition's counts by day, oldest first and by type and name within a day (the
 * order of the buckets' ids, so sums of dollars add up in one order), and the durations of each day.
 */
export interface WindowRuns {
  readonly counts: ReadonlyArray<DayCounts>
  readonly durations: ReadonlyMap<string, ReadonlyArray<DurationHistogram>>
}

/** Groups items by a key, in the order the keys first appear. */
const groupBy = <T>(items: ReadonlyArray<T>, key: (item: T) => string) => {
  const groups = new Map<string, Array<T>>()
  for (const item of items) {
    const group = groups.get(key(item))
    if (group === undefined) groups.set(key(item), [item])
    else group.push(item)
  }
  return groups
}

/** The runs of some buckets, oldest first: one definition's, or those a filter keeps. */
export const runsOfBuckets = (buckets: ReadonlyArray<DayBucket>): WindowRuns => ({
  counts: buckets,
  durations: new Map(
    [...groupBy(buckets, (bucket) => bucket.day)].map(([day, group]) => [
      day,
      group.map((bucket) => histogramOf(bucket.durations))
    ])
  )
})

/** The runs of a playbook's days, oldest first: every definition's. */
export const runsOfDays = (days: ReadonlyArray<RunDay>): WindowRuns => ({
  counts: days.flatMap((day) => day.definitions.map((counts) => ({ ...counts, day: day.day }))),
  durations: new Map(days.map((day) => [day.day, [histogramOf(day.durations)]]))
})

/** A sum of dollars without the noise of binary fractions. */
const dollars = (cost: number): number => Math.round(cost * 1e12) / 1e12

/** The runs, tokens and cost of some definitions' counts, added up in their order. */
const countsOf = (counts: ReadonlyArray<DefinitionCounts>) => {
  const sum = (count: (each: DefinitionCounts) => number) => counts.reduce((total, each) => total + count(each), 0)
  const costed = sum((each) => each.costed)
  return {
    runs: {
      total: sum((each) => each.runs.total),
      succeeded: sum((each) => each.runs.succeeded),
      failed: sum((each) => each.runs.failed),
      rejected: sum((each) => each.runs.rejected)
    },
    tokens: counts.reduce((tokens, each) => addTokens(tokens, each.tokens), noTokens),
    cost_usd: costed === 0 ? null : dollars(sum((each) => (each.costed === 0 ? 0 : each.cost_usd)))
  }
}

/** The nearest-rank p50 and p95 of the durations of some histograms, or null when they count none. */
const durationsOf = (histograms: ReadonlyArray<DurationHistogram>) => {
  const ranks = nearestRanks(histograms, [50, 95])
  return ranks === undefined ? null : { p50: ranks[0], p95: ranks[1] }
}

/** Orders two texts. */
const byText = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0)

/**
 * What the runs of a window did (HTTP "Analytics"): every day of the window present oldest first, and each
 * definition's share, the most runs first, then by type and name.
 */
export const analyticsOf = (window: AnalyticsWindow, runs: WindowRuns): PlaybookAnalytics => {
  const within = runs.counts.filter((counts) => counts.day >= window.from && counts.day <= window.to)
  const byDay = groupBy(within, (counts) => counts.day)
  const durations = (day: string) => runs.durations.get(day) ?? []
  const byFunction = [...groupBy(within, (counts) => `${counts.type}/${counts.name}`).values()].map((group) => {
    const { runs: ended, tokens, cost_usd } = countsOf(group)
    return { type: group[0].type, name: group[0].name, runs: ended.total, tokens, cost_usd }
  })
  return {
    days: window.days.length,
    ...countsOf(within),
    duration_ms: durationsOf(window.days.flatMap(durations)),
    by_day: window.days.map((day) => ({
      day,
      ...countsOf(byDay.get(day) ?? []),
      duration_ms: durationsOf(durations(day))
    })),
    by_function: byFunction.sort(
      (left, right) => right.runs - left.runs || byText(left.type, right.type) || byText(left.name, right.name)
    )
  }
}
