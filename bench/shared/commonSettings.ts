import { positiveSetting } from "./positiveSetting.js"

/** The settings every benchmark reads alike from the environment. */
export interface CommonSettings {
  /** BENCH_SCALE: how much larger or smaller a run is (1 by default); each benchmark says what it multiplies. */
  readonly scale: number
  /** BENCH_REPS: interleaved repetitions (at least 3). */
  readonly reps: number
  /** DATABASE_URL: the Postgres server the benchmark writes to (in schemas or a database of its own, dropped after). */
  readonly databaseUrl: string
  /** BENCH_POSTGRES=0 leaves out the Postgres rows. */
  readonly postgres: boolean
  /** BENCH_STRICT=1 exits with 1 when a target is missed. */
  readonly strict: boolean
}

/** Reads the common settings from `env`; `reps` is the repetitions when BENCH_REPS is unset. */
export const readCommonSettings = (env: NodeJS.ProcessEnv, reps = 3): CommonSettings => ({
  scale: positiveSetting("BENCH_SCALE", env.BENCH_SCALE, 1),
  reps: Math.max(3, Math.round(positiveSetting("BENCH_REPS", env.BENCH_REPS, reps))),
  databaseUrl: env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
  postgres: env.BENCH_POSTGRES !== "0",
  strict: env.BENCH_STRICT === "1"
})
