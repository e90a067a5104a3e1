import { randomUUID } from "node:crypto"
import { Ledger, type NewFact, type StreamAppend } from "@runledger/core"
import { Effect } from "effect"
import type { ReadsConfig } from "./config.js"

const dayMillis = 86_400_000

/** A playbook of the benchmark: its org and id. */
export interface Playbook {
  readonly org: string
  readonly id: string
}

/** A number from 0 to 1 that depends only on `seed`, so every store gets the same runs. */
const unit = (seed: number) => {
  const x = Math.sin(seed * 12.9898) * 43_758.5453
  return x - Math.floor(x)
}

/**
 * The ten facts of the `index`th of `runs` runs of a reasoning definition, as its engine records them: its start,
 * two model calls each followed by a tool call, and its ending (one in 20 failed, one in 20 rejected after its model
 * answered, the others succeeded). First starts spread evenly over the last `days` days, in order.
 */
const runFacts = (config: ReadsConfig, playbook: Playbook, index: number, runs: number, now: number): StreamAppend => {
  const runId = randomUUID()
  const first = now - config.days * dayMillis + Math.floor((index / runs) * (config.days * dayMillis - 60_000))
  const duration = 400 + Math.floor(unit(index) * 6_000)
  const definition = { type: "reasoning", name: config.definitions[index % config.definitions.length]!, version: 1 }
  const firstAt = new Date(first).toISOString()
  const fact = (type: string, offset: number, data: unknown, ending = false): NewFact => ({
    id: randomUUID(),
    type,
    data,
    metadata: {
      correlation_id: runId,
      causation_id: null,
      at: new Date(first + offset).toISOString(),
      by: "key:bench",
      run_id: runId,
      definition,
      ...(ending ? { first_started_at: firstAt } : {})
    }
  })
  const call = (step: number) => [
    fact("model_call_started", step * 10, { model: "bench-model", messages_bytes: 1_800 }),
    fact("model_call_answered", step * 10 + 5, { cost_usd: 0.0015, duration_ms: 700, finish_reason: "tool_calls" }),
    fact("tool_call_started", step * 10 + 6, { server: "crm", tool: "lookup", read_only: true, arguments_bytes: 90 }),
    fact("tool_call_answered", step * 10 + 8, { result_bytes: 420, duration_ms: 120 })
  ]
  const record = {
    usage: { input: { uncached: 900, cache_read: 300, cache_write: 0 }, output: { text: 120, reasoning: 0 } },
    duration_ms: duration
  }
  const ending =
    index % 20 === 0
      ? fact(
          "run_failed",
          duration,
          { incident: randomUUID(), detail: "The runtime broke while it ran this run." },
          true
        )
      : index % 20 === 1
        ? fact("run_rejected", duration, { reason: "invalid_output", detail: "The answer is not JSON.", record }, true)
        : fact("run_succeeded", duration, { output: { answer: "ok", index }, record }, true)
  return {
    stream: `playbook/${playbook.org}/${playbook.id}/runs/${runId}`,
    expected: 0,
    facts: [
      fact("run_started", 0, {
        input: { n: index },
        input_sha256: "0".repeat(64),
        calls_tools: true,
        finishes_later: false,
        started_by: { id: "key:bench", name: "bench" },
        attempt: 1
      }),
      ...call(1),
      ...call(2),
      ending
    ]
  }
}

/**
 * Records `runs` runs in a playbook through the Ledger port, `runsPerAppend` runs (streams) per append, and returns
 * the facts recorded. `progress` hears of every tenth of the way.
 */
export const recordRuns = (
  config: ReadsConfig,
  playbook: Playbook,
  runs: number,
  progress: (done: number) => void = () => {}
): Effect.Effect<number, unknown, Ledger> =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const now = Date.now()
    const tenth = Math.max(1, Math.floor(runs / 10 / config.runsPerAppend)) * config.runsPerAppend
    for (let start = 0; start < runs; start += config.runsPerAppend) {
      const appends: Array<StreamAppend> = []
      for (let index = start; index < Math.min(runs, start + config.runsPerAppend); index++)
        appends.push(runFacts(config, playbook, index, runs, now))
      yield* ledger.append(appends)
      if ((start + config.runsPerAppend) % tenth === 0) progress(start + config.runsPerAppend)
    }
    return runs * config.factsPerRun
  })
