/**
 * The nearest-rank percentile of counted durations in ascending order (`[duration, count]`): the duration at place
 * ⌈p × n⌉ of the n durations, with p in whole percents so no rounding of p moves the place. Undefined for none.
 */
export const nearestRank = (bins: ReadonlyArray<readonly [number, number]>, percent: number): number | undefined => {
  const total = bins.reduce((sum, [, count]) => sum + count, 0)
  if (total === 0) return undefined
  const place = Math.max(1, Math.ceil((percent * total) / 100))
  let seen = 0
  for (const [duration, count] of bins) {
    seen += count
    if (seen >= place) return duration
  }
  return undefined
}
