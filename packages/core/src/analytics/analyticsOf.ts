import type { AnalyticsWindow } from "./AnalyticsWindow.js"
import { nearestRank } from "./nearestRank.js"
import type { PlaybookAnalytics } from "./PlaybookAnalytics.js"
import { addCost, addTokens, noTokens, type RunTally } from "./RunTally.js"

/** A sum of dollars without the noise of binary fractions. */
const dollars = (cost: number | null): number | null => (cost === null ? null : Math.round(cost * 1e12) / 1e12)

/** The runs, tokens, cost and durations of ended runs. */
const periodOf = (tallies: ReadonlyArray<RunTally>) => {
  const durations = tallies
    .flatMap((tally) => (tally.duration_ms === null ? [] : [tally.duration_ms]))
    .sort((left, right) => left - right)
  const counted = (status: RunTally["status"]) => tallies.filter((tally) => tally.status === status).length
  return {
    runs: {
      total: tallies.length,
      succeeded: counted("succeeded"),
      failed: counted("failed"),
      rejected: counted("rejected")
    },
    tokens: tallies.reduce((sum, tally) => addTokens(sum, tally.tokens), noTokens),
    cost_usd: dollars(tallies.reduce<number | null>((sum, tally) => addCost(sum, tally.cost_usd), null)),
    duration_ms: durations.length === 0 ? null : { p50: nearestRank(durations, 50)!, p95: nearestRank(durations, 95)! }
  }
}

/** Groups tallies by a key, in the order the keys first appear. */
const groupBy = (tallies: ReadonlyArray<RunTally>, key: (tally: RunTally) => string) => {
  const groups = new Map<string, Array<RunTally>>()
  for (const tally of tallies) groups.set(key(tally), [...(groups.get(key(tally)) ?? []), tally])
  return groups
}

/**
 * What the runs of a window did (HTTP "Analytics"): the runs that ended, on the day each first started, every day
 * of the window present oldest first, and each definition's share, the most runs first, then by type and name.
 */
export const analyticsOf = (window: AnalyticsWindow, tallies: ReadonlyArray<RunTally>): PlaybookAnalytics => {
  const ended = tallies.filter(
    (tally) => tally.status !== "started" && tally.day >= window.from && tally.day <= window.to
  )
  const byDay = groupBy(ended, (tally) => tally.day)
  const byFunction = [...groupBy(ended, (tally) => `${tally.type}/${tally.name}`).values()].map((group) => {
    const { runs, tokens, cost_usd } = periodOf(group)
    return { type: group[0].type, name: group[0].name, runs: runs.total, tokens, cost_usd }
  })
  return {
    days: window.days.length,
    ...periodOf(ended),
    by_day: window.days.map((day) => ({ day, ...periodOf(byDay.get(day) ?? []) })),
    by_function: byFunction.sort(
      (left, right) =>
        right.runs - left.runs ||
        (left.type < right.type
          ? -1
          : left.type > right.type
            ? 1
            : left.name < right.name
              ? -1
              : left.name > right.name
                ? 1
                : 0)
    )
  }
}
