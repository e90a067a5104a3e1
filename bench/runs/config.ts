import { type CommonSettings, readCommonSettings } from "../shared/commonSettings.js"
import { positiveSetting } from "../shared/positiveSetting.js"

/** The runs benchmark's settings, from the environment, with defaults that finish within a few minutes. */
export interface RunsConfig extends CommonSettings {
  /** BENCH_SCALE: multiplies the runs of every row (10,000 at 1). */
  readonly scale: number
  /** Runs of one row, summed over its repetitions. */
  readonly runs: number
  /** BENCH_CONCURRENCY: requests in flight against the HTTP handler. */
  readonly concurrency: number
  /** BENCH_WORKERS: the sandbox pool sizes measured on the memory store, e.g. `1,2,4`. */
  readonly workers: ReadonlyArray<number>
  /** BENCH_PG_WORKERS: the sandbox pool size of the Postgres row. */
  readonly postgresWorkers: number
}

/** Reads the settings from `env`. */
export const readRunsConfig = (env: NodeJS.ProcessEnv = process.env): RunsConfig => {
  const common = readCommonSettings(env)
  const { scale } = common
  return {
    ...common,
    runs: Math.max(30, Math.round(10_000 * scale)),
    concurrency: Math.round(positiveSetting("BENCH_CONCURRENCY", env.BENCH_CONCURRENCY, 8)),
    workers: (env.BENCH_WORKERS ?? "1,2,4")
      .split(",")
      .map((size) => Math.round(positiveSetting("BENCH_WORKERS", size, 2))),
    postgresWorkers: Math.round(positiveSetting("BENCH_PG_WORKERS", env.BENCH_PG_WORKERS, 2))
  }
}
