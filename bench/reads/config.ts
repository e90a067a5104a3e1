import { type CommonSettings, readCommonSettings } from "../shared/commonSettings.js"
import { positiveSetting } from "../shared/positiveSetting.js"

/** The reads benchmark's settings, from the environment. */
export interface ReadsConfig extends CommonSettings {
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
  /** BENCH_REQUESTS: timed requests of one read on one playbook per repetition; their median is the sample. */
  readonly requests: number
  /** BENCH_MEMORY=0 skips the memory store. */
  readonly memory: boolean
  /** BENCH_ANALYZE=0 times the Postgres reads without statistics of the tables (no `ANALYZE`, ADR 0012 and 0013). */
  readonly analyze: boolean
}

/** Reads the settings from `env`. */
export const readReadsConfig = (env: NodeJS.ProcessEnv = process.env): ReadsConfig => {
  const common = readCommonSettings(env)
  const { scale } = common
  return {
    ...common,
    largeRuns: Math.max(10_000, Math.round(100_000 * scale)),
    smallRuns: 1_000,
    factsPerRun: 10,
    days: 30,
    definitions: ["triage", "summarize", "classify", "draft"],
    runsPerAppend: 200,
    requests: Math.round(positiveSetting("BENCH_REQUESTS", env.BENCH_REQUESTS, 15)),
    memory: env.BENCH_MEMORY !== "0",
    analyze: env.BENCH_ANALYZE !== "0"
  }
}
