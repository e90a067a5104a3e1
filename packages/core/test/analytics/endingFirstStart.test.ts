import type { Fact } from "@runledger/core"
import { describe, expect, it } from "vitest"
import { requestEnding } from "../../src/host/requestEnding.js"
import { foldRequest, noRequest } from "../../src/interactions/foldRequest.js"

const runId = "0199a3c4-7d2e-7c1a-9b3f-0000000000e1"

/** A fact of the run's stream at a time. */
const fact = (type: string, at: string, data: unknown, position: number): Fact => ({
  id: `${runId}-${position}`,
  type,
  data,
  metadata: {
    stream: `playbook/acme/finance/runs/${runId}`,
    position,
    global_position: position,
    correlation_id: runId,
    causation_id: null,
    at,
    by: "key:build-bot",
    run_id: runId,
    definition: { type: "interaction", name: "ask", version: 1 }
  }
})

describe("the host's ending of a waiting request", () => {
  it("carries when the run first started, so analytics files it under that day", () => {
    const state = [
      fact(
        "run_started",
        "2026-03-01T23:59:00.000Z",
        { input: {}, input_sha256: "x", calls_tools: false, finishes_later: true, started_by: {}, attempt: 1 },
        1
      ),
      fact("interaction_requested", "2026-03-01T23:59:00.000Z", { expires_at: "2026-03-02T00:30:00.000Z" }, 2),
      fact("run_deferred", "2026-03-01T23:59:00.000Z", { record: { to: "dana@example.com" } }, 3)
    ].reduce(foldRequest, noRequest)
    const ending = requestEnding(state, Date.parse("2026-03-02T01:00:00.000Z"))
    expect([ending?.type, ending?.metadata?.first_started_at]).toEqual(["run_rejected", "2026-03-01T23:59:00.000Z"])
  })
})
