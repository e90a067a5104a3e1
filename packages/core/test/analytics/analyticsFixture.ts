import { appendFact } from "../changes/changesFixture.js"
import type { makeRuntime } from "../runtimeFixture.js"

const dayMillis = 86_400_000

/** The instant `days` days before today (UTC), at an hour of the day and some milliseconds more. */
export const daysAgo = (days: number, hour = 10, extraMillis = 0) => {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate())
  return new Date(today - days * dayMillis + hour * 3_600_000 + extraMillis).toISOString()
}

/** The UTC day `days` days before today, `YYYY-MM-DD`. */
export const dayAgo = (days: number) => daysAgo(days).slice(0, 10)

/** A reasoning record's usage: uncached and cache-read input tokens, output text tokens. */
export const usage = (uncached: number, cacheRead: number, text: number) => ({
  usage: {
    input: { uncached, cache_read: cacheRead, cache_write: null },
    output: { text, reasoning: null },
    total: null
  }
})

/**
 * Records facts of runs of playbook acme/finance as a function's engine would, each at a time: a run's endings
 * and its later starts carry when it first started.
 */
export const runRecorder = (fixture: () => ReturnType<typeof makeRuntime>) => {
  const firstStarts = new Map<string, string>()
  return (
    runId: string,
    type: string,
    at: string,
    data: unknown = {},
    definition = { type: "reasoning", name: "triage" }
  ) => {
    const first = firstStarts.get(runId)
    if (type === "run_started" && first === undefined) firstStarts.set(runId, at)
    const carried = first !== undefined && type !== "model_call_answered"
    return appendFact(fixture(), `playbook/acme/finance/runs/${runId}`, type, data, {
      at,
      run_id: runId,
      correlation_id: runId,
      definition: { ...definition, version: 1 },
      ...(carried ? { first_started_at: first } : {})
    })
  }
}
