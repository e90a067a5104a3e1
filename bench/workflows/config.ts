import { type CommonSettings, readCommonSettings } from "../shared/commonSettings.js"

/** The workflows benchmark's settings, from the environment. */
export interface WorkflowsConfig extends CommonSettings {
  /** BENCH_SCALE: multiplies the steps per workflow (100 at 1) and the concurrent workflows (50 at 1). */
  readonly scale: number
  /** Steps of one workflow. */
  readonly steps: number
  /** Workflows started at once in the concurrent rows. */
  readonly concurrent: number
  /** Recorded inputs after which the cost-growth row resumes a run, e.g. 1, 100 and 1,000. */
  readonly histories: ReadonlyArray<number>
}

/** Reads the settings from `env`. */
export const readWorkflowsConfig = (env: NodeJS.ProcessEnv = process.env): WorkflowsConfig => {
  const common = readCommonSettings(env)
  const { scale } = common
  const longest = Math.max(10, Math.min(1_000, Math.round(1_000 * scale)))
  return {
    ...common,
    steps: Math.max(10, Math.round(100 * scale)),
    concurrent: Math.max(4, Math.round(50 * scale)),
    histories: [1, Math.max(2, Math.round(longest / 10)), longest]
  }
}
