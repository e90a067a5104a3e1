import { positiveSetting } from "../shared/positiveSetting.js"

/** The answers benchmark's settings, from the environment. */
export interface AnswersConfig {
  /** BENCH_SCALE: multiplies the waiting requests of a row's repetition (1,000 at 1). */
  readonly scale: number
  /** Requests started, then answered one by one, in one repetition of one row. */
  readonly requests: number
  /** BENCH_REPS: interleaved repetitions (at least 3). */
  readonly reps: number
  /** BENCH_CONCURRENCY: starts in flight while a repetition opens its requests. */
  readonly concurrency: number
  /** DATABASE_URL: where the Postgres rows and the floor write (random schemas, dropped after). */
  readonly databaseUrl: string
  /** BENCH_POSTGRES=0 measures the memory row only. */
  readonly postgres: boolean
  /** BENCH_STRICT=1 exits with 1 when a target is missed. */
  readonly strict: boolean
}

/** Reads the settings from `env`. */
export const readAnswersConfig = (env: NodeJS.ProcessEnv = process.env): AnswersConfig => {
  const scale = positiveSetting("BENCH_SCALE", env.BENCH_SCALE, 1)
  return {
    scale,
    requests: Math.max(20, Math.round(1_000 * scale)),
    reps: Math.max(3, Math.round(positiveSetting("BENCH_REPS", env.BENCH_REPS, 3))),
    concurrency: Math.round(positiveSetting("BENCH_CONCURRENCY", env.BENCH_CONCURRENCY, 8)),
    databaseUrl: env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    postgres: env.BENCH_POSTGRES !== "0",
    strict: env.BENCH_STRICT === "1"
  }
}
