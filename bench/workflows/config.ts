import { positiveSetting } from "../shared/positiveSetting.js"

/** The workflows benchmark's settings, from the environment. */
export interface WorkflowsConfig {
  /** BENCH_SCALE: multiplies the steps per workflow (100 at 1) and the concurrent workflows (50 at 1). */
  readonly scale: number
  /** Steps of one workflow. */
  readonly steps: number
  /** Workflows started at once in the concurrent rows. */
  readonly concurrent: number
  /** Recorded inputs after which the cost-growth row resumes a run, e.g. 1, 100 and 1,000. */
  readonly histories: ReadonlyArray<number>
  /** BENCH_REPS: interleaved repetitions (at least 3). */
  readonly reps: number
  /** DATABASE_URL: the server the benchmark creates its own database on (dropped after). */
  readonly databaseUrl: string
  /** BENCH_POSTGRES=0 leaves out every Postgres row (and DBOS). */
  readonly postgres: boolean
  /** BENCH_STRICT=1 exits with 1 when a target is missed. */
  readonly strict: boolean
}

/** Reads the settings from `env`. */
export const readWorkflowsConfig = (env: NodeJS.ProcessEnv = process.env): WorkflowsConfig => {
  const scale = positiveSetting("BENCH_SCALE", env.BENCH_SCALE, 1)
  const longest = Math.max(10, Math.min(1_000, Math.round(1_000 * scale)))
  return {
    scale,
    steps: Math.max(10, Math.round(100 * scale)),
    concurrent: Math.max(4, Math.round(50 * scale)),
    histories: [1, Math.max(2, Math.round(longest / 10)), longest],
    reps: Math.max(3, Math.round(positiveSetting("BENCH_REPS", env.BENCH_REPS, 3))),
    databaseUrl: env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    postgres: env.BENCH_POSTGRES !== "0",
    strict: env.BENCH_STRICT === "1"
  }
}
