/**
 * The nearest-rank percentile of durations in ascending order: the one at place ⌈p × n⌉, with p in whole
 * percents so no rounding of p moves the place. Undefined for no durations.
 */
export const nearestRank = (sorted: ReadonlyArray<number>, percent: number): number | undefined =>
  sorted.length === 0 ? undefined : sorted[Math.max(1, Math.ceil((percent * sorted.length) / 100)) - 1]
