/**
 * Durations counted by bin: the bin's lowest duration in milliseconds, as text, to how many runs fell in it
 * (ADR 0179). Below one second a bin is one millisecond; from one second on, three significant digits.
 */
export type DurationHistogram = Readonly<Record<string, number>>

/** The bin of a duration: whole milliseconds below 1,000, else kept to three significant digits, rounded down. */
export const binOf = (millis: number): number => {
  const whole = Math.max(0, Math.floor(millis))
  if (whole < 1000) return whole
  const scale = 10 ** (String(whole).length - 3)
  return Math.floor(whole / scale) * scale
}

/** The histogram with one duration more (`count` 1) or one less (`count` -1); an emptied bin is dropped. */
export const countDuration = (histogram: DurationHistogram, millis: number, count: 1 | -1): DurationHistogram => {
  const bin = String(binOf(millis))
  const next = (histogram[bin] ?? 0) + count
  const { [bin]: _dropped, ...rest } = histogram
  return next > 0 ? { ...rest, [bin]: next } : rest
}

/** The bins of several histograms added up, in ascending order of duration, as `[duration, count]`. */
export const mergedBins = (histograms: ReadonlyArray<DurationHistogram>): ReadonlyArray<readonly [number, number]> => {
  const counts = new Map<number, number>()
  for (const histogram of histograms)
    for (const [bin, count] of Object.entries(histogram))
      counts.set(Number(bin), (counts.get(Number(bin)) ?? 0) + count)
  return [...counts].sort(([left], [right]) => left - right)
}
