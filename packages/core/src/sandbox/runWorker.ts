import { parentPort } from "node:worker_threads"
import type { SandboxProgram } from "../ports/Sandbox.js"
import { type FreshContext, isFresh, openFreshContext } from "./freshContext.js"
import { grewTooLarge, type KeptEngine, newKeptEngine } from "./keptEngine.js"
import { type PreparedProgram, prepareProgram } from "./prepareProgram.js"
import { type RunAnswer, type RunJob, workerReady } from "./protocol.js"
import { recentMemo } from "./recentMemo.js"
import { runProgram } from "./runProgram.js"
import { computationBounds, type SandboxBounds } from "./sandboxBounds.js"

/**
 * A run worker (function-formats.md §1.9): keeps one QuickJS WebAssembly module warm, prepares programs (kept
 * for their next runs) and runs each job in a fresh context, one job at a time in the order they came (the pool
 * may queue a second one behind the first, decision 0232); a job whose deadline passed before it started is not
 * run. On a build whose memory layout is known the module keeps one context and puts its memory back after each
 * run (decision 0235); on another, each run gets a new runtime and context, readied once the previous run has
 * answered (decision 0231). A module whose memory grew past 64 MiB, or whose engine broke, is replaced before the
 * next job.
 */
const port = parentPort!

/** A QuickJS module, and the run context it keeps when its build's layout is known (decision 0235). */
type Engine = KeptEngine<FreshContext>

/** A new module, and its kept context opened under the default bounds (each run sets its own as it starts). */
const newEngine = (): Promise<Engine> =>
  newKeptEngine((module, layout) => {
    const kept = openFreshContext(module, computationBounds, layout)
    return isFresh(kept) ? kept : undefined
  })

let engine: Promise<Engine> = newEngine()
/** The context readied for the next job on an engine that keeps none, with the engine it belongs to. */
let ready: { readonly engine: Engine; readonly fresh: FreshContext } | undefined
let lastBounds: SandboxBounds = computationBounds

/** Programs made ready to run, by their text and first line as JSON (the last 64). */
const prepareKept = recentMemo((program) => prepareProgram(JSON.parse(program) as SandboxProgram), 64)
const prepare = (job: RunJob): PreparedProgram => prepareKept(JSON.stringify(job.program))

/** The engine's kept context, else the readied context if it belongs to `current`, else a new one. */
const take = (current: Engine, bounds: SandboxBounds) => {
  if (current.kept !== undefined) return current.kept
  const taken = ready
  ready = undefined
  if (taken?.engine === current) return taken.fresh
  taken?.fresh.dispose()
  return openFreshContext(current.module, bounds)
}

const broke = (error: unknown): RunAnswer => {
  engine = newEngine()
  return { _tag: "Broke", detail: error instanceof Error ? error.message : String(error) }
}

const answer = async (job: RunJob): Promise<RunAnswer> => {
  if (Date.now() >= job.deadline) return { _tag: "NotStarted" }
  const program = prepare(job)
  if (program._tag === "Refused") return { _tag: "Unworkable", detail: program.detail, work: 0 }
  lastBounds = job.bounds
  try {
    const current = await engine
    const fresh = take(current, job.bounds)
    if (!isFresh(fresh)) return fresh
    const outcome = runProgram(fresh, { ...job, script: program.script })
    if (grewTooLarge(current.module)) engine = newEngine()
    return outcome
  } catch (error) {
    return broke(error)
  }
}

/**
 * Readies the next job's context on an engine that keeps none, unless one is ready; a failure leaves none, and
 * the job opens its own.
 */
const readyNext = async () => {
  try {
    const current = await engine
    if (current.kept !== undefined || ready !== undefined) return
    await new Promise(setImmediate)
    const opened = openFreshContext(current.module, lastBounds)
    if (isFresh(opened)) ready = { engine: current, fresh: opened }
  } catch (error) {
    broke(error)
  }
}

/** Jobs are carried out one at a time, in the order they came; the next context is readied after each answer. */
let queue: Promise<void> = Promise.resolve()
port.on("message", (job: RunJob) => {
  queue = queue.then(async () => {
    port.postMessage(await answer(job))
    await readyNext()
  })
})
void engine.then(async () => {
  await readyNext()
  port.postMessage(workerReady)
})
