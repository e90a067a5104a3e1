import type { Fact } from "../domain/Fact.js"
import { addCost, addTokens, noTokens, type RunTally, type Tokens } from "./RunTally.js"

/** A count in a usage record, 0 where it is missing or null. */
const count = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0)

/**
 * The tokens of a reasoning run's record (function-formats.md §2: `usage { input { uncached, cache_read,
 * cache_write }, output { text, reasoning } }`): input is all three parts, cached the part read from cache.
 */
const tokensOf = (record: unknown): Tokens => {
  const usage = (record as { usage?: { input?: Record<string, unknown>; output?: Record<string, unknown> } } | null)
    ?.usage
  if (usage === undefined || usage === null) return noTokens
  const input = usage.input ?? {}
  const output = usage.output ?? {}
  return {
    input: count(input.uncached) + count(input.cache_read) + count(input.cache_write),
    output: count(output.text) + count(output.reasoning),
    cached: count(input.cache_read)
  }
}

/** The fact types a run's tally folds. */
export const tallyFactTypes = ["run_started", "model_call_answered", "run_succeeded", "run_rejected", "run_failed"]

/** Folds one fact of a run's stream into its tally: the one place analytics derives what a run counts. */
export const foldRunTally = (current: RunTally | undefined, fact: Fact): RunTally | undefined => {
  const at = fact.metadata.at
  switch (fact.type) {
    case "run_started": {
      const attempt = { started_at: at, status: "started", attempt_cost_usd: null, duration_ms: null } as const
      if (current !== undefined) return { ...current, ...attempt }
      const definition = fact.metadata.definition
      if (definition === undefined) return undefined
      const base = { type: definition.type, name: definition.name, day: at.slice(0, 10), tokens: noTokens }
      return { ...base, ...attempt, cost_usd: null }
    }
    case "model_call_answered": {
      const cost = (fact.data as { cost_usd?: unknown } | null)?.cost_usd
      return (
        current && {
          ...current,
          attempt_cost_usd: addCost(current.attempt_cost_usd, typeof cost === "number" ? cost : null)
        }
      )
    }
    case "run_succeeded":
    case "run_rejected":
    case "run_failed": {
      if (current === undefined) return undefined
      const status = fact.type === "run_succeeded" ? "succeeded" : fact.type === "run_rejected" ? "rejected" : "failed"
      const record = (fact.data as { record?: unknown } | null)?.record
      return {
        ...current,
        status,
        tokens: current.type === "reasoning" ? addTokens(current.tokens, tokensOf(record)) : current.tokens,
        cost_usd: addCost(current.cost_usd, current.attempt_cost_usd),
        attempt_cost_usd: null,
        duration_ms: status === "rejected" ? null : Date.parse(at) - Date.parse(current.started_at)
      }
    }
    default:
      return current
  }
}
