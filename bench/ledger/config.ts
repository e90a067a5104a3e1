import { positiveSetting } from "../shared/positiveSetting.js"

/** How many appends each stream gets in the 1-fact workloads and in the batch workload. */
export interface AppendsPerStream {
  readonly single: number
  readonly batch: number
}

/** The benchmark's settings, from the environment, with defaults that keep a full run within a few minutes. */
export interface BenchConfig {
  /** BENCH_SCALE: above 1 multiplies the appends per stream, below 1 shrinks the number of streams (quick runs). */
  readonly scale: number
  /** BENCH_REPS: interleaved repetitions per figure (at least 3). */
  readonly reps: number
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
  /** DATABASE_URL: where the Postgres store and the baseline write. */
  readonly databaseUrl: string
  /** BENCH_POSTGRES=0 skips Postgres (memory only). */
  readonly postgres: boolean
  /** BENCH_STRICT=1 exits with 1 when a target is missed. */
  readonly strict: boolean
}

/** Reads the settings from `env`. */
export const readConfig = (env: NodeJS.ProcessEnv = process.env): BenchConfig => {
  const scale = positiveSetting("BENCH_SCALE", env.BENCH_SCALE, 1)
  const grow = Math.max(1, scale)
  const shrink = Math.min(1, scale)
  return {
    scale,
    reps: Math.max(3, Math.round(positiveSetting("BENCH_REPS", env.BENCH_REPS, 5))),
    streams: Math.max(10, Math.round(1_000 * shrink)),
    postgresAppends: { single: Math.round(grow), batch: Math.round(grow) },
    memoryAppends: { single: Math.round(20 * grow), batch: Math.round(5 * grow) },
    batchSize: 10,
    appenders: env.BENCH_APPENDERS === "0" ? 0 : Math.round(positiveSetting("BENCH_APPENDERS", env.BENCH_APPENDERS, 4)),
    pageSize: 1_000,
    databaseUrl: env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    postgres: env.BENCH_POSTGRES !== "0",
    strict: env.BENCH_STRICT === "1"
  }
}
