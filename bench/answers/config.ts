import { type CommonSettings, readCommonSettings } from "../shared/commonSettings.js"
import { positiveSetting } from "../shared/positiveSetting.js"

/** The answers benchmark's settings, from the environment. */
export interface AnswersConfig extends CommonSettings {
  /** BENCH_SCALE: multiplies the waiting requests of a row's repetition (1,000 at 1). */
  readonly scale: number
  /** Requests started, then answered one by one, in one repetition of one row. */
  readonly requests: number
  /** BENCH_CONCURRENCY: starts in flight while a repetition opens its requests. */
  readonly concurrency: number
}

/** Reads the settings from `env`. */
export const readAnswersConfig = (env: NodeJS.ProcessEnv = process.env): AnswersConfig => {
  const common = readCommonSettings(env)
  const { scale } = common
  return {
    ...common,
    requests: Math.max(20, Math.round(1_000 * scale)),
    concurrency: Math.round(positiveSetting("BENCH_CONCURRENCY", env.BENCH_CONCURRENCY, 8))
  }
}
