import { median } from "../ledger/measure.js"

/** What one repetition of one row measured. */
export interface Sample {
  /** Median milliseconds of one step: between consecutive recorded step results (absent for `set` and memory peers). */
  readonly stepP50?: number
  /** Wall milliseconds of the whole repetition over its steps. */
  readonly wallPerStep: number
  /** Steps over wall seconds. */
  readonly stepsPerSecond: number
  /** Per step, what the driver sent (Postgres rows). */
  readonly commits?: number
  readonly writeCommits?: number
  readonly roundTrips?: number
  /** Per step, the statements sent by the start of their text, most frequent first (Postgres rows). */
  readonly statements?: ReadonlyArray<readonly [string, number]>
  /** Per step, the CPU milliseconds of the whole process (every thread: workers, GC, the peers' own) … */
  readonly cpuPerStep?: number
  /** … and of its main thread alone, on a core (Linux: `/proc/self/task/<pid>/schedstat`). */
  readonly mainCpuPerStep?: number
  /** … and, for a Postgres row, of PostgreSQL: the backends of the benchmark's database and the server's own. */
  readonly postgresCpuPerStep?: number
  /** Why the repetition's result is wrong (an output other than n = steps), if it is. */
  readonly wrong?: string
}

/** The median of the gaps between consecutive times. */
export const gapMedian = (times: ReadonlyArray<number>): number =>
  median(times.slice(1).map((time, index) => time - times[index]!))

/**
 * The timings of a chain of `steps` steps from the moment it began and the moment each step returned (`ends`, the
 * first entry the beginning): the median step, and the wall time over the steps.
 */
export const chainTimings = (ends: ReadonlyArray<number>, steps: number) => {
  const wallMs = ends.at(-1)! - ends[0]!
  return { stepP50: gapMedian(ends), wallPerStep: wallMs / steps, stepsPerSecond: steps / (wallMs / 1_000) }
}

/** The median over the samples of one figure, leaving out samples without it. */
export const medianOf = (samples: ReadonlyArray<Sample>, pick: (sample: Sample) => number | undefined): number =>
  median(samples.flatMap((sample) => (pick(sample) === undefined ? [] : [pick(sample)!])))
