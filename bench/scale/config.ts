import { type CommonSettings, readCommonSettings } from "../shared/commonSettings.js"
import { positiveSetting } from "../shared/positiveSetting.js"

/** The scale benchmark's settings, from the environment. */
export interface ScaleConfig extends Pick<CommonSettings, "scale" | "reps" | "databaseUrl"> {
  /** BENCH_SCALE: multiplies the steps per workflow (20 at 1) and the workflows started at once (30 at 1). */
  readonly scale: number
  /** `call: run_definition` steps of one workflow. */
  readonly steps: number
  /** Workflows started at once in one trial: a multiple of 6, so every instance count takes the same share. */
  readonly concurrent: number
  /** BENCH_INSTANCES: the instance counts compared, e.g. 1, 2 and 3. */
  readonly instances: ReadonlyArray<number>
}

/** Reads the settings from `env`. */
export const readScaleConfig = (env: NodeJS.ProcessEnv = process.env): ScaleConfig => {
  const { scale, reps, databaseUrl } = readCommonSettings(env)
  const instances = (env.BENCH_INSTANCES ?? "1,2,3").split(",").map((count) => {
    const value = positiveSetting("BENCH_INSTANCES", count.trim(), 1)
    if (!Number.isInteger(value)) throw new Error(`BENCH_INSTANCES must list whole numbers, got "${count}"`)
    return value
  })
  return {
    scale,
    steps: Math.max(5, Math.round(20 * scale)),
    concurrent: Math.max(6, Math.round((30 * scale) / 6) * 6),
    instances,
    reps,
    databaseUrl
  }
}
