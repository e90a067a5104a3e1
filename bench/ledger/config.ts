import { type CommonSettings, readCommonSettings } from "../shared/commonSettings.js"
import { positiveSetting } from "../shared/positiveSetting.js"

/** How many appends each stream gets in the 1-fact workloads and in the batch workload. */
export interface AppendsPerStream {
  readonly single: number
  readonly batch: number
}

/** The benchmark's settings, from the environment, with defaults that keep a full run within a few minutes. */
export interface BenchConfig extends CommonSettings {
  /** BENCH_SCALE: above 1 multiplies the appends per stream, below 1 shrinks the number of streams (quick runs). */
  readonly scale: number
  /** Streams each append workload writes to. */
  readonly streams: number
  /** Appends per stream on Postgres: of one fact (1-fact workloads) and of a batch (batch workload). */
  readonly postgresAppends: AppendsPerStream
  /**
   * Appends per stream on memory: more than on Postgres (memory is ~1,000× faster), so that a repetition lasts
   * long enough (hundreds of milliseconds) to be timed.
   */
  readonly memoryAppends: AppendsPerStream
  /** Facts per batch in the batch workload. */
  readonly batchSize: number
  /** BENCH_APPENDERS: concurrent appenders of the Postgres concurrency row (0 leaves the row out). */
  readonly appenders: number
  /** Facts per page when reading everything back in global order. */
  readonly pageSize: number
}

/** Reads the settings from `env`. */
export const readConfig = (env: NodeJS.ProcessEnv = process.env): BenchConfig => {
  const common = readCommonSettings(env, 5)
  const { scale } = common
  const grow = Math.max(1, scale)
  const shrink = Math.min(1, scale)
  return {
    ...common,
    streams: Math.max(10, Math.round(1_000 * shrink)),
    postgresAppends: { single: Math.round(grow), batch: Math.round(grow) },
    memoryAppends: { single: Math.round(20 * grow), batch: Math.round(5 * grow) },
    batchSize: 10,
    appenders: env.BENCH_APPENDERS === "0" ? 0 : Math.round(positiveSetting("BENCH_APPENDERS", env.BENCH_APPENDERS, 4)),
    pageSize: 1_000
  }
}
