import {
  Authenticator,
  type ContentStore,
  dispatch,
  findOperation,
  Ledger,
  RunLedger,
  type Views
} from "@runledger/core"
import { Effect, Either, type Layer, ManagedRuntime, Stream } from "effect"
import { callChain, incrementSource, listenLoop, setChain } from "./documents.js"

const org = "local"
const playbook = "bench"

/** How a workflow run ended (`refused` when `run_definition` answered a rejection) and its step times. */
export interface EndedRun {
  readonly runId: string
  readonly status: string
  readonly output: unknown
  /** Milliseconds from calling `run_definition` until the run was seen ended (its answer, or a read of it). */
  readonly wallMs: number
  /** Milliseconds between one `workflow_input_applied` fact and the next: one per step of a call chain. */
  readonly inputGaps: ReadonlyArray<number>
}

/** A RunLedger runtime driven in-process through the core `dispatch` (local mode, no HTTP), on one store. */
export interface RunLedgerRuntime {
  /** Calls an operation that must succeed, answering its output; `scoped: false` for an org operation. */
  readonly call: (operation: string, input: unknown, scoped?: boolean) => Promise<any>
  /**
   * Runs the workflow `name` on `input` and waits for its end; `ended` is called once it is seen ended, before its
   * facts are read for the step times (a read of the measurement, not of the run), which `gaps: false` skips.
   */
  readonly runWorkflow: (name: string, input: unknown, options?: RunOptions) => Promise<EndedRun>
  readonly close: () => Promise<void>
}

/** How `runWorkflow` reports a run's end. */
export interface RunOptions {
  readonly ended?: () => void
  readonly gaps?: boolean
}

/** The names of the workflows `saveBenchDefinitions` saves. */
export const workflowNames = { calls: "calls", sets: "sets", loop: "loop" } as const

/** An operation the runtime refused. */
class Refused extends Error {
  constructor(
    operation: string,
    readonly rejection: unknown
  ) {
    super(`${operation} refused: ${JSON.stringify(rejection)}`)
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The facts that end a run. */
const endingTypes = new Set(["run_succeeded", "run_rejected", "run_failed"])

/** How long a run that answered `started` is waited for before it is read again without a wake-up. */
const endBackstopMillis = 1_000

/** Opens a runtime on `store` (its default settings: local mode, default sandbox pool). */
export const openRunLedger = async (
  store: Layer.Layer<Ledger | Views | ContentStore, unknown>
): Promise<RunLedgerRuntime> => {
  const runtime = ManagedRuntime.make(RunLedger.onStore(store, {}))
  const caller = await runtime.runPromise(
    Effect.flatMap(Authenticator, (authenticator) => authenticator.authenticate({ loopback: true }))
  )
  const call = async (operation: string, input: unknown, scoped = true): Promise<any> => {
    const found = findOperation(operation)
    if (found === undefined) throw new Error(`no operation ${operation}`)
    const answer = await runtime.runPromise(
      Effect.either(
        dispatch({
          operation: found,
          caller,
          input,
          origin: "http://127.0.0.1",
          org,
          ...(scoped ? { playbook } : {})
        })
      )
    )
    if (Either.isLeft(answer)) throw new Refused(operation, answer.left)
    return (answer.right as { output: unknown }).output
  }
  // Which run streams recorded an ending, from the ledger's wake-ups in this process: a run that answered `started`
  // is read again once it ended, so reading it costs the figures no statements per step (ADR 0292).
  const ended = new Set<string>()
  const waiting = new Map<string, () => void>()
  runtime.runFork(
    Effect.flatMap(Ledger, (ledger) =>
      Stream.runForEach(ledger.wakeups, (wakeup) =>
        Effect.sync(() => {
          if (!wakeup.types?.some((type) => endingTypes.has(type))) return
          for (const stream of wakeup.streams) {
            ended.add(stream)
            waiting.get(stream)?.()
          }
        })
      )
    )
  )
  const endOf = (runId: string) => {
    const stream = `playbook/${org}/${playbook}/runs/${runId}`
    let backstop: ReturnType<typeof setTimeout> | undefined
    return new Promise<void>((resolve) => {
      if (ended.has(stream)) return resolve()
      waiting.set(stream, resolve)
      backstop = setTimeout(resolve, endBackstopMillis)
    }).finally(() => {
      clearTimeout(backstop)
      waiting.delete(stream)
    })
  }
  const factsOf = (runId: string) =>
    runtime.runPromise(
      Effect.flatMap(Ledger, (ledger) => ledger.readStream(`playbook/${org}/${playbook}/runs/${runId}`))
    )
  const runWorkflow = async (name: string, input: unknown, options: RunOptions = {}): Promise<EndedRun> => {
    const start = performance.now()
    let run: any
    try {
      run = await call("run_definition", { type: "workflow", name, input })
    } catch (error) {
      if (!(error instanceof Refused)) throw error
      const { reason, detail } = error.rejection as { reason?: string; detail?: string }
      return {
        runId: "",
        status: `refused ${reason}: ${detail}`,
        output: undefined,
        wallMs: performance.now() - start,
        inputGaps: []
      }
    }
    // A run that waits answers `started`: read it again once a wake-up says it ended (or after the backstop).
    while (run.status === "started") {
      await endOf(run.run_id)
      run = await call("get_run", { run_id: run.run_id })
    }
    const wallMs = performance.now() - start
    options.ended?.()
    const facts = options.gaps === false ? [] : await factsOf(run.run_id)
    const inputs = facts
      .filter((fact) => fact.type === "workflow_input_applied")
      .map((fact) => Date.parse(fact.metadata.at))
    return {
      runId: run.run_id,
      status: run.status,
      output: run.output,
      wallMs,
      inputGaps: inputs.slice(1).map((at, index) => at - inputs[index]!)
    }
  }
  return { call, runWorkflow, close: () => runtime.dispose() }
}

/** Calls `save` again while the runtime answers that no checker or worker is ready yet (a loaded machine). */
const whileStarting = async <A>(save: () => Promise<A>): Promise<A> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await save()
    } catch (error) {
      if (!String(error).includes('"unavailable"') || attempt === 10) throw error
      await wait(2_000)
    }
  }
}

/**
 * Creates the playbook `bench` with the function `increment` and the workflows `calls` and `sets` of `steps`
 * steps and `loop`, then runs `increment` once so a sandbox worker is up before anything is timed.
 */
export const saveBenchDefinitions = async (runLedger: RunLedgerRuntime, steps: number): Promise<void> => {
  const { call } = runLedger
  await call("create_playbook", { playbook, name: "bench" }, false)
  await whileStarting(() =>
    call("create_definition", { type: "computation", name: "increment", source: incrementSource, diagram: "none" })
  )
  await whileStarting(() => call("run_definition", { type: "computation", name: "increment", input: { n: 0 } }))
  await call("create_definition", { type: "workflow", name: workflowNames.calls, source: callChain(steps) })
  await call("create_definition", { type: "workflow", name: workflowNames.sets, source: setChain(steps) })
  await call("create_definition", { type: "workflow", name: workflowNames.loop, source: listenLoop })
}
