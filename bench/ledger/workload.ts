import { randomBytes } from "node:crypto"
import { type NewFact, type StreamAppend, uuidv7 } from "@runledger/core"

/** A sequence of appends, built before any timing: the same rows go to the ledger and to its baseline. */
export interface Workload {
  /** Names the workload's streams, so workloads of one repetition never share a stream. */
  readonly label: string
  /** Facts per append. */
  readonly batchSize: number
  /** The appends in order: round after round over every stream, each at its expected version. */
  readonly appends: ReadonlyArray<StreamAppend>
  /** Facts in all the appends. */
  readonly facts: number
}

const factTypes = ["step_started", "tool_called", "tool_returned", "step_completed", "note_recorded"]

/** A fact as a run would record it: ~300 bytes of JSON across data and metadata. */
const makeFact = (runId: string, index: number, at: number): NewFact => {
  const id = uuidv7(at, randomBytes(10))
  const type = factTypes[index % factTypes.length]!
  return {
    id,
    type,
    data: {
      step: `step-${index}`,
      tool: "http.request",
      input: { method: "POST", url: `https://api.example.com/v1/orders/${index}`, attempt: 1 },
      output: { status: 200, items: index % 7, total_cents: 1_999 + index },
      duration_ms: 12 + (index % 50)
    },
    metadata: {
      correlation_id: runId,
      causation_id: index === 0 ? null : runId,
      at: new Date(at).toISOString(),
      by: "agent:order-assistant",
      run_id: runId,
      definition: { type: "playbook", name: "orders", version: 3 },
      trace_id: randomBytes(16).toString("hex"),
      span_id: randomBytes(8).toString("hex")
    }
  }
}

/**
 * `streams` streams × `appendsPerStream` appends of `batchSize` facts. Appends go round-robin over the streams
 * (a stream's k-th append expects version k × batchSize), so consecutive appends touch different streams.
 */
export const makeWorkload = (label: string, streams: number, appendsPerStream: number, batchSize: number): Workload => {
  const runs = Array.from({ length: streams }, () => uuidv7(Date.now(), randomBytes(10)))
  const appends: Array<StreamAppend> = []
  const start = Date.now()
  for (let round = 0; round < appendsPerStream; round++)
    for (let s = 0; s < streams; s++) {
      const stream = `org/bench/runs/${label}-${runs[s]}`
      const facts = Array.from({ length: batchSize }, (_, i) =>
        makeFact(runs[s]!, round * batchSize + i, start + appends.length)
      )
      appends.push({ stream, expected: round * batchSize, facts })
    }
  // Through JSON, as facts arrive from a request: flat strings and plain objects, not the builder's concatenations.
  const parsed = JSON.parse(JSON.stringify(appends)) as ReadonlyArray<StreamAppend>
  return { label, batchSize, appends: parsed, facts: streams * appendsPerStream * batchSize }
}

/**
 * Splits a workload among `appenders` so that each stream belongs to one appender and keeps its order: the
 * appenders never conflict on a version, as writers of distinct streams would not.
 */
export const partition = (workload: Workload, appenders: number): ReadonlyArray<ReadonlyArray<StreamAppend>> => {
  const owner = new Map<string, number>()
  const parts: Array<Array<StreamAppend>> = Array.from({ length: appenders }, () => [])
  for (const append of workload.appends) {
    let index = owner.get(append.stream)
    if (index === undefined) {
      index = owner.size % appenders
      owner.set(append.stream, index)
    }
    parts[index]!.push(append)
  }
  return parts
}
