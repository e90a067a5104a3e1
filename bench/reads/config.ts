import { positiveSetting } from "../shared/positiveSetting.js"

/** The reads benchmark's settings, from the environment. */
export interface ReadsConfig {
  /** BENCH_SCALE: multiplies the runs of the large playbook (100,000 at 1). */
  readonly scale: number
  /** Runs of the large playbook (ten facts each). */
  readonly largeRuns: number
  /** Runs of the small playbook. */
  readonly smallRuns: number
  /** Facts each run records: its start, four model and four tool call facts, its ending. */
  readonly factsPerRun: number
  /** The days the runs' first starts spread over, ending now. */
  readonly days: number
  /** The definitions the runs carry out, one after the other. */
  readonly definitions: ReadonlyArray<string>
  /** Runs per `Ledger.append` while the datasets are built. */
  readonly runsPerAppend: number
  /** BENCH_REPS: interleaved repetitions (at least 3). */
  readonly reps: number
  /** BENCH_REQUESTS: timed requests of one read on one playbook per repetition; their median is the sample. */
  readonly requests: number
  /** DATABASE_URL: where the Postgres store writes (a random schema, dropped after). */
  readonly databaseUrl: string
  /** BENCH_MEMORY=0 skips the memory store. */
  readonly memory: boolean
  /** BENCH_POSTGRES=0 skips Postgres. */
  readonly postgres: boolean
  /** BENCH_STRICT=1 exits with 1 when a target is missed. */
  readonly strict: boolean
  /** BENCH_ANALYZE=0 times the Postgres reads without statistics of the tables (no `ANALYZE`, ADR 0012 and 0013). */
  readonly analyze: boolean
}

/** Reads the settings from `env`. */
export const readReadsConfig = (env: NodeJS.ProcessEnv = process.env): ReadsConfig => {
  const scale = positiveSetting("BENCH_SCALE", env.BENCH_SCALE, 1)
  return {
    scale,
    largeRuns: Math.max(10_000, Math.round(100_000 * scale)),
    smallRuns: 1_000,
    factsPerRun: 10,
    days: 30,
    definitions: ["triage", "summarize", "classify", "draft"],
    runsPerAppend: 200,
    reps: Math.max(3, Math.round(positiveSetting("BENCH_REPS", env.BENCH_REPS, 3))),
    requests: Math.round(positiveSetting("BENCH_REQUESTS", env.BENCH_REQUESTS, 15)),
    databaseUrl: env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
    memory: env.BENCH_MEMORY !== "0",
    postgres: env.BENCH_POSTGRES !== "0",
    strict: env.BENCH_STRICT === "1",
    analyze: env.BENCH_ANALYZE !== "0"
  }
}
