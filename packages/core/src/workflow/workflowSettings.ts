import { Effect } from "effect"
import type { RuntimeSettings } from "../config/RuntimeConfig.js"
import { defaultMaxRunMilliseconds } from "../formats/workflow/readWorkflow.js"
import { defaultMaxOpenCalls, openCallsSettingRange } from "./tree/openCallBound.js"

/** The shortest and longest run a deployment may allow (workflow-format.md §15): 2 hours to 365 days. */
export const runDurationSettingRange = [2 * 3_600_000, 365 * 86_400_000] as const

/** The workflow limits a deployment sets, as the engine applies them. */
export interface WorkflowSettings {
  readonly maxRunMilliseconds: number
  readonly maxOpenCalls: number
}

const within = (value: number, [least, most]: readonly [number, number]) =>
  Number.isInteger(value) && value >= least && value <= most

/**
 * The deployment's workflow limits (ADR 0296): the longest run (`maxRunMilliseconds`, 2 hours–365 days, default 30
 * days) and the open calls under one root run (`maxOpenCalls`, 1–9,999, default 1,000). A value outside its range
 * stops the runtime from starting, saying which.
 */
export const workflowSettingsOf = (settings: RuntimeSettings): Effect.Effect<WorkflowSettings> => {
  const maxRunMilliseconds = settings.maxRunMilliseconds ?? defaultMaxRunMilliseconds
  const maxOpenCalls = settings.maxOpenCalls ?? defaultMaxOpenCalls
  if (!within(maxRunMilliseconds, runDurationSettingRange))
    return Effect.dieMessage(
      `maxRunMilliseconds must be a whole number of milliseconds from 2 hours to 365 days, not ${maxRunMilliseconds}`
    )
  if (!within(maxOpenCalls, openCallsSettingRange))
    return Effect.dieMessage(`maxOpenCalls must be a whole number from 1 to 9,999, not ${maxOpenCalls}`)
  return Effect.succeed({ maxRunMilliseconds, maxOpenCalls })
}
