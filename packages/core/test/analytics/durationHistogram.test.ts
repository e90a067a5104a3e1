import { describe, expect, it } from "vitest"
import { binOf, countDuration, mergedBins } from "../../src/analytics/DurationHistogram.js"
import { nearestRank } from "../../src/analytics/nearestRank.js"

describe("durations by bin", () => {
  it("keeps whole milliseconds below a second, and three significant digits from a second on, rounded down", () => {
    expect([0, 7.9, 999, 1000, 1009, 1234, 61_234, 3_600_001].map(binOf)).toEqual([
      0, 7, 999, 1000, 1000, 1230, 61_200, 3_600_000
    ])
  })

  it("adds and takes out durations, dropping an emptied bin, and merges histograms in ascending order", () => {
    const two = countDuration(countDuration({}, 1234, 1), 1239, 1)
    expect(two).toEqual({ "1230": 2 })
    expect(countDuration(countDuration(two, 1231, -1), 1230, -1)).toEqual({})
    expect(
      mergedBins([
        { "200": 1, "1230": 2 },
        { "15": 3, "200": 1 }
      ])
    ).toEqual([
      [15, 3],
      [200, 2],
      [1230, 2]
    ])
  })

  it("takes the nearest rank: the duration at place ⌈p × n⌉ of the n durations, counting each bin's runs", () => {
    const bins = [
      [100, 10],
      [200, 9],
      [300, 1]
    ] as const
    expect([nearestRank(bins, 50), nearestRank(bins, 95), nearestRank(bins, 100)]).toEqual([100, 200, 300])
    expect(nearestRank([[5, 1]], 95)).toBe(5)
    expect(nearestRank([], 50)).toBeUndefined()
  })
})
