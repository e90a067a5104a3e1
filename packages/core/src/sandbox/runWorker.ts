import { parentPort } from "node:worker_threads"
import { type FreshContext, isFresh, openFreshContext } from "./freshContext.js"
import { grewTooLarge } from "./keptEngine.js"
import { type RunAnswer, type RunJob, workerReady } from "./protocol.js"
import { newRunEngine, preparedProgramOf, type RunEngine } from "./runEngine.js"
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

let engine: Promise<RunEngine> = newRunEngine()
/** The context readied for the next job on an engine that keeps none, with the engine it belongs to. */
let ready: { readonly engine: RunEngine; readonly fresh: FreshContext } | undefined
let lastBounds: SandboxBounds = computationBounds

/** The engine's kept context, else the readied context if it belongs to `current`, else a new one. */
const take = (current: RunEngine, bounds: SandboxBounds) => {
  if (current.kept !== undefined) return current.kept
  const taken = ready
  ready = undefined
  if (taken?.engine === current) return taken.fresh
  taken?.fresh.dispose()
  return openFreshContext(current.module, bounds)
}

const broke = (error: unknown): RunAnswer => {
  engine = newRunEngine()
  return { _tag: "Broke", detail: error instanceof Error ? error.message : String(error) }
}

const answer = async (job: RunJob): Promise<RunAnswer> => {
  if (Date.now() >= job.deadline) return { _tag: "NotStarted" }
  const program = preparedProgramOf(job)
  if (program._tag === "Refused") return { _tag: "Unworkable", detail: program.detail, work: 0 }
  lastBounds = job.bounds
  try {
    const current = await engine
    const fresh = take(current, job.bounds)
    if (!isFresh(fresh)) return fresh
    const outcome = runProgram(fresh, { ...job, script: program.script })
    if (grewTooLarge(current.module)) engine = newRunEngine()
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
