import { Effect } from "effect"
import type { CallerReference } from "../../domain/Caller.js"
import type { Fact } from "../../domain/Fact.js"
import { Ledger } from "../../ports/Ledger.js"
import type { StoreUnavailable } from "../../ports/StoreUnavailable.js"
import type { RunStarted } from "../../runs/runFacts.js"

/** What the engine needs to know of a workflow run besides its state: read once per drive from its `run_started`. */
export interface RunContext {
  readonly org: string
  readonly playbook: string
  readonly runId: string
  readonly stream: string
  readonly name: string
  readonly version: number
  /** Whoever started the run: its callees act for them (workflow-format.md §7.1). */
  readonly startedBy: CallerReference
  readonly actsFor?: string
  /** Calls above this run (0 for a root run). */
  readonly callDepth: number
  /** The root run's id: the chain every fact of the call tree belongs to. */
  readonly correlationId: string
  readonly started: Fact
}

/** The context of the run whose `run_started` is `started`. */
export const contextOf = (started: Fact): RunContext => {
  const stream = started.metadata.stream
  const [, org, playbook, , runId] = stream.split("/")
  const data = started.data as RunStarted
  return {
    org: org!,
    playbook: playbook!,
    runId: runId!,
    stream,
    name: started.metadata.definition!.name,
    version: started.metadata.definition!.version ?? 1,
    startedBy: data.started_by,
    ...(started.metadata.acts_for === undefined ? {} : { actsFor: started.metadata.acts_for }),
    callDepth: started.metadata.call_depth ?? 0,
    correlationId: started.metadata.correlation_id ?? runId!,
    started
  }
}

/** Reads the context of the run of `stream`: its latest `run_started`. Undefined when the stream holds none. */
export const readRunContext = (stream: string): Effect.Effect<RunContext | undefined, StoreUnavailable, Ledger> =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const [first] = yield* ledger.readStream(stream, { from: 1, limit: 1 })
    return first === undefined || first.type !== "run_started" ? undefined : contextOf(first)
  })
