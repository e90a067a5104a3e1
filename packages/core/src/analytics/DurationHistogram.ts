/**
 * Durations counted by bin (ADR 0179), written as a short list of numbers (ADR 0180): the bins in ascending order
 * of duration, each at its index (`indexOfBin`), where a positive number is how many runs fell in the next bin and
 * a negative number −n skips n empty bins. `{ 400 ms: 1, 401 ms: 2, 1,230 ms: 2 }` is `[-400, 1, 2, -621, 2]`.
 */
export type DurationHistogram = ReadonlyArray<number>

/** The bin of a duration: whole milliseconds below 1,000, else kept to three significant digits, rounded down. */
export const binOf = (millis: number): number => {
  const whole = Math.max(0, Math.floor(millis))
  if (whole < 1000) return whole
  const scale = 10 ** (String(whole).length - 3)
  return Math.floor(whole / scale) * scale
}

/** A bin's place among all bins in ascending order: its milliseconds below 1,000, then 900 bins per decade. */
export const indexOfBin = (bin: number): number => {
  if (bin < 1000) return bin
  const digits = String(bin).length
  return 1000 + (digits - 4) * 900 + (bin / 10 ** (digits - 3) - 100)
}

/** The bin at a place among all bins. */
export const binAt = (index: number): number => {
  if (index < 1000) return index
  const above = index - 1000
  return (100 + (above % 900)) * 10 ** (Math.floor(above / 900) + 1)
}

/** How many bin places a histogram spans, from the first. */
const extentOf = (histogram: DurationHistogram): number =>
  histogram.reduce((extent, value) => extent + (value < 0 ? -value : 1), 0)

/** The counts of some histograms added up by bin place, over at least `places` places. */
export const binCounts = (histograms: ReadonlyArray<DurationHistogram>, places = 0): Float64Array => {
  const counts = new Float64Array(histograms.reduce((most, histogram) => Math.max(most, extentOf(histogram)), places))
  for (const histogram of histograms) {
    let index = 0
    for (let at = 0; at < histogram.length; at++) {
      const value = histogram[at]
      if (value < 0) index -= value
      else counts[index++] += value
    }
  }
  return counts
}

/**
 * The histogram with one duration more (`count` 1) or one less (`count` -1), written again as it is read: a bin
 * emptied is skipped with its neighbours, and no skip ends the list. It walks the short list once, never spreading
 * it out by bin place.
 */
export const countDuration = (histogram: DurationHistogram, millis: number, count: 1 | -1): DurationHistogram => {
  const target = indexOfBin(binOf(millis))
  const written: Array<number> = []
  let skipped = 0
  /** Writes the next place with `value` runs; a place with none is skipped. */
  const place = (value: number) => {
    if (value <= 0) skipped++
    else {
      if (skipped > 0) written.push(-skipped)
      written.push(value)
      skipped = 0
    }
  }
  let index = 0
  let counted = false
  for (const value of histogram) {
    if (value < 0) {
      const end = index - value
      if (!counted && target < end) {
        skipped += target - index
        place(count)
        skipped += end - target - 1
        counted = true
      } else skipped += end - index
      index = end
    } else {
      place(!counted && index === target ? value + count : value)
      if (index === target) counted = true
      index++
    }
  }
  if (!counted) {
    skipped += target - index
    place(count)
  }
  return written
}

/** The places ⌈p × n⌉ of some whole percents among `total` durations. */
const placesOf = (total: number, percents: ReadonlyArray<number>): ReadonlyArray<number> =>
  percents.map((percent) => Math.max(1, Math.ceil((percent * total) / 100)))

/** The ranks of one short list, walked as it is written, never spread out by bin place. */
const ranksOfList = (histogram: DurationHistogram, percents: ReadonlyArray<number>) => {
  let total = 0
  for (let at = 0; at < histogram.length; at++) if (histogram[at] > 0) total += histogram[at]
  if (total === 0) return undefined
  const places = placesOf(total, percents)
  const found: Array<number> = []
  let seen = 0
  let index = 0
  for (let at = 0; at < histogram.length && found.length < places.length; at++) {
    const value = histogram[at]
    if (value < 0) index -= value
    else {
      seen += value
      while (found.length < places.length && seen >= places[found.length]) found.push(binAt(index))
      index++
    }
  }
  return found
}

/** The ranks of counts spread out by bin place. */
const ranksOfCounts = (counts: Float64Array, percents: ReadonlyArray<number>) => {
  let total = 0
  for (let index = 0; index < counts.length; index++) total += counts[index]
  if (total === 0) return undefined
  const places = placesOf(total, percents)
  const found: Array<number> = []
  let seen = 0
  for (let index = 0; index < counts.length && found.length < places.length; index++) {
    seen += counts[index]
    while (found.length < places.length && seen >= places[found.length]) found.push(binAt(index))
  }
  return found
}

/**
 * The nearest-rank percentiles of the durations some histograms count: for each p of `percents` (whole percents,
 * ascending, so no rounding of p moves a place), the bin of the duration at place ⌈p × n⌉ of the n durations in
 * ascending order; undefined when they count none. One histogram is walked as it is written; several are added up
 * by bin place first. Either way the bins are walked once for all the percents.
 */
export const nearestRanks = (
  histograms: ReadonlyArray<DurationHistogram>,
  percents: ReadonlyArray<number>
): ReadonlyArray<number> | undefined =>
  histograms.length === 1 ? ranksOfList(histograms[0], percents) : ranksOfCounts(binCounts(histograms), percents)

/**
 * A histogram as a view document keeps it (ADR 0180, later): its short list as one text, the numbers joined by
 * commas (`"-400,1,2,-621,2"`, `""` for none). PostgreSQL writes a `jsonb` text out at the cost of a copy, where
 * it writes each number of an array out one by one: 31 days of ≈ 1,100 bins each took ≈ 2.5 ms, as text ≈ 0.3 ms.
 * Documents written before keep the list itself, which reads the same.
 */
export type StoredHistogram = string | DurationHistogram

/** The text a view document keeps of a histogram. */
export const storedHistogram = (histogram: DurationHistogram): string => histogram.join(",")

/**
 * The histogram a view document keeps, as its text or, written before ADR 0180's later note, as its list. The text
 * is read as a JSON array (a third faster than splitting it and converting each number).
 */
export const histogramOf = (stored: StoredHistogram): DurationHistogram =>
  typeof stored !== "string" ? stored : (JSON.parse(`[${stored}]`) as DurationHistogram)
