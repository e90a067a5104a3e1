import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { defaultSettings } from "../../src/config/RuntimeConfig.js"
import { workflowSettingsOf } from "../../src/workflow/workflowSettings.js"

const settingsOf = (more: { maxRunMilliseconds?: number; maxOpenCalls?: number }) =>
  Effect.runSyncExit(workflowSettingsOf({ ...defaultSettings, ...more }))

describe("the workflow limits a deployment sets (workflow-format.md §7.3, §15)", () => {
  it("defaults to runs of 30 days and 1,000 open calls under one root run", () => {
    expect(settingsOf({})).toEqual(Exit.succeed({ maxRunMilliseconds: 30 * 86_400_000, maxOpenCalls: 1_000 }))
  })

  it("takes a longest run from 2 hours to 365 days and open calls from 1 to 9,999", () => {
    for (const more of [
      { maxRunMilliseconds: 2 * 3_600_000, maxOpenCalls: 1 },
      { maxRunMilliseconds: 365 * 86_400_000, maxOpenCalls: 9_999 }
    ])
      expect(settingsOf(more)).toEqual(Exit.succeed(more))
  })

  it("refuses to start with a value outside its range, saying which", () => {
    for (const [more, words] of [
      [{ maxRunMilliseconds: 2 * 3_600_000 - 1 }, "maxRunMilliseconds"],
      [{ maxRunMilliseconds: 365 * 86_400_000 + 1 }, "maxRunMilliseconds"],
      [{ maxOpenCalls: 0 }, "maxOpenCalls"],
      [{ maxOpenCalls: 10_000 }, "maxOpenCalls"],
      [{ maxOpenCalls: 1.5 }, "maxOpenCalls"]
    ] as const) {
      const exit = settingsOf(more)
      expect(Exit.isFailure(exit) && String(exit.cause)).toContain(words)
    }
  })
})
