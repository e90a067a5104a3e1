import { positiveSetting } from "../shared/positiveSetting.js"

/** The runs benchmark's settings, from the environment, with defaults that finish within a few minutes. */
export interface RunsConfig {
  /** BENCH_SCALE: multiplies the runs of every row (10,000 at 1). */
  readonly scale: number
  /** Runs of one row, summed over its repetitions. */
  readonly runs: number
  /** BENCH_REPS: interleaved repetitions (at least 3). */
  readonly reps: number
  /** BENCH_CONCURRENCY: requests in flight against the HTTP handler. */
  readonly concurrency: number
  /** BENCH_WORKERS: the sandbox pool sizes measured on the memory store, e.g. `1,2,4`. */
  readonly workers: ReadonlyArray<number>
  /** BENCH_PG_WORKERS: the sandbox pool size of the Postgres row. */
  readonly postgresWorkers: number
  /** DATABASE_URL: where the Postgres store writes (a random schema, dropped after). */
  readonly databaseUrl: string
  /** BENCH_POSTGRES=0 skips Postgres. */
  readonly postgres: boolean
  /** BENCH_STRICT=1 exits with 1 when a target is missed. */
  readonly strict: boolean
}

/** Reads the settings from `env`. */
export const readRunsConfig = (env: NodeJS.ProcessEnv = process.env): RunsConfig => {
  const scale = positiveSetting("BENCH_SCALE", env.BENCH_SCALE, 1)
  return {
    scale,
    runs: Math.max(30, Math.round(10_000 * scale)),
    reps: Math.max(3, Math.round(positiveSetting("BENCH_REPS", env.BENCH_REPS, 3))),
    concurrency: Math.round(positiveSetting("BENCH_CONCURRENCY", env.BENCH_CONCURRENCY, 8)),
    workers: (env.BENCH_WORKERS ?? "1,2,4")
      .split(",")
      .map((size) => Math.round(positiveSetting("BENCH_WORKERS", size, 2))),
    postgresWorkers: Math.round(positiveSetting("BENCH_PG_WORKERS", env.BENCH_PG_WORKERS, 2)),
    databaseUrl: env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    postgres: env.BENCH_POSTGRES !== "0",
    strict: env.BENCH_STRICT === "1"
  }
}
