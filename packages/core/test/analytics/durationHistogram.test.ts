import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  binAt,
  binCounts,
  binOf,
  countDuration,
  histogramOf,
  indexOfBin,
  nearestRanks,
  storedHistogram
} from "../../src/analytics/DurationHistogram.js"

describe("durations by bin", () => {
  it("keeps whole milliseconds below a second, and three significant digits from a second on, rounded down", () => {
    expect([0, 7.9, 999, 1000, 1009, 1234, 61_234, 3_600_001].map(binOf)).toEqual([
      0, 7, 999, 1000, 1000, 1230, 61_200, 3_600_000
    ])
  })

  it("places every bin after the bins below it, and reads each place back as its bin", () => {
    const bins = [0, 1, 999, 1000, 1010, 9990, 10_000, 99_900, 100_000, 3_600_000, 86_400_000]
    expect(bins.map(indexOfBin)).toEqual([0, 1, 999, 1000, 1001, 1899, 1900, 2799, 2800, 3960, 5364])
    expect(bins.map(indexOfBin).map(binAt)).toEqual(bins)
  })

  it("keeps a histogram in a view document as one text, and reads it back, or the list documents kept before", () => {
    expect(storedHistogram([-400, 1, 1, -621, 2])).toBe("-400,1,1,-621,2")
    expect(storedHistogram([])).toBe("")
    expect(histogramOf("-400,1,1,-621,2")).toEqual([-400, 1, 1, -621, 2])
    expect(histogramOf("")).toEqual([])
    expect(histogramOf([-3, 2])).toEqual([-3, 2])
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 90_000 }), { maxLength: 60 }), (durations) => {
        const histogram = durations.reduce(
          (counted, duration) => countDuration(counted, duration, 1),
          [] as ReadonlyArray<number>
        )
        expect(histogramOf(storedHistogram(histogram))).toEqual(histogram)
      })
    )
  })

  it("writes counts as runs of bins and skips, adds and takes out durations, dropping an emptied bin", () => {
    const two = countDuration(countDuration([], 1234, 1), 1239, 1)
    expect(two).toEqual([-1023, 2])
    const three = countDuration(countDuration(two, 401, 1), 400, 1)
    expect(three).toEqual([-400, 1, 1, -621, 2])
    expect(countDuration(countDuration(two, 1231, -1), 1230, -1)).toEqual([])
    expect(countDuration(three, 401, -1)).toEqual([-400, 1, -622, 2])
  })

  it("counts a duration inside a skip, in a counted bin or past the end, and takes out none never counted", () => {
    expect(countDuration([-3, 2, -5, 1], 5, 1)).toEqual([-3, 2, -1, 1, -3, 1])
    expect(countDuration([-3, 2, -2, 1], 4, 1)).toEqual([-3, 2, 1, -1, 1])
    expect(countDuration([-3, 2, 1], 4, 1)).toEqual([-3, 2, 2])
    expect(countDuration([2], 9, 1)).toEqual([2, -8, 1])
    expect(countDuration([-3, 2], 1, -1)).toEqual([-3, 2])
    expect(countDuration([-3, 2], 7, -1)).toEqual([-3, 2])
  })

  it("adds histograms by bin, and takes the nearest rank: the bin at place ⌈p × n⌉ of the n durations", () => {
    const counts = binCounts([
      [-100, 10, -99, 4],
      [-200, 5, -99, 1]
    ])
    expect([counts[100], counts[200], counts[300]]).toEqual([10, 9, 1])
    const both = [
      [-100, 10, -99, 4],
      [-200, 5, -99, 1]
    ]
    expect(nearestRanks(both, [50, 95, 100])).toEqual([100, 200, 300])
    expect(nearestRanks([[-5, 1]], [95])).toEqual([5])
    expect(nearestRanks([], [50])).toBeUndefined()
    expect(nearestRanks([[-3]], [50])).toBeUndefined()
  })

  it("walks one histogram as it is written to the same ranks as the same counts added up", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 90_000 }), { minLength: 1, maxLength: 60 }), (durations) => {
        const histogram = durations.reduce(
          (list, millis) => countDuration(list, millis, 1),
          [] as ReadonlyArray<number>
        )
        const sorted = durations.map(binOf).toSorted((a, b) => a - b)
        const expected = [1, 50, 95, 100].map((p) => sorted[Math.max(1, Math.ceil((p * sorted.length) / 100)) - 1])
        expect(nearestRanks([histogram], [1, 50, 95, 100])).toEqual(expected)
        expect(nearestRanks([histogram, []], [1, 50, 95, 100])).toEqual(expected)
      })
    )
  })
})
