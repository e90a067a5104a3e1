import { parentPort } from "node:worker_threads"
import variant from "@jitl/quickjs-wasmfile-release-sync"
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule
} from "quickjs-emscripten-core"
import type { SandboxProgram } from "../ports/Sandbox.js"
import { type FreshContext, isFresh, openFreshContext } from "./freshContext.js"
import { type PreparedProgram, prepareProgram } from "./prepareProgram.js"
import { type RunAnswer, type RunJob, workerReady } from "./protocol.js"
import { recentMemo } from "./recentMemo.js"
import { runProgram } from "./runProgram.js"
import { computationBounds, type SandboxBounds } from "./sandboxBounds.js"

/**
 * A run worker (function-formats.md §1.9): keeps one QuickJS WebAssembly module warm, prepares programs (kept
 * for their next runs) and runs each job in a fresh runtime and context, one job at a time in the order they
 * came (the pool may queue a second one behind the first, decision 0232); a job whose deadline passed before it
 * started is not run. Once it has answered, it readies the next fresh context (runtime, context, prelude), so a
 * run pays only for its own program (decision 0231). A module whose memory grew past 64 MiB, or whose engine broke, is replaced before the next job.
 */
const port = parentPort!
const keptModuleBytes = 64 * 1024 * 1024
/** The package's types describe its CommonJS build; as an ES module its default export is the variant itself. */
const syncVariant = variant as unknown as QuickJSSyncVariant
const newModule = () => newQuickJSWASMModuleFromVariant(syncVariant)
let module: Promise<QuickJSWASMModule> = newModule()
/** The context readied for the next job, with the module it belongs to and the bounds it was opened under. */
let ready: { readonly engine: QuickJSWASMModule; readonly fresh: FreshContext } | undefined
let lastBounds: SandboxBounds = computationBounds

/** Programs made ready to run, by their text and first line as JSON (the last 64). */
const prepareKept = recentMemo((program) => prepareProgram(JSON.parse(program) as SandboxProgram), 64)
const prepare = (job: RunJob): PreparedProgram => prepareKept(JSON.stringify(job.program))

/** The readied context if it belongs to `engine`, else a new one opened under the job's bounds. */
const take = (engine: QuickJSWASMModule, bounds: SandboxBounds) => {
  const taken = ready
  ready = undefined
  if (taken?.engine === engine) return taken.fresh
  taken?.fresh.dispose()
  return openFreshContext(engine, bounds)
}

const broke = (error: unknown): RunAnswer => {
  module = newModule()
  return { _tag: "Broke", detail: error instanceof Error ? error.message : String(error) }
}

const answer = async (job: RunJob): Promise<RunAnswer> => {
  if (Date.now() >= job.deadline) return { _tag: "NotStarted" }
  const program = prepare(job)
  if (program._tag === "Refused") return { _tag: "Unworkable", detail: program.detail, work: 0 }
  const engine = await module
  lastBounds = job.bounds
  try {
    const fresh = take(engine, job.bounds)
    if (!isFresh(fresh)) return fresh
    const outcome = runProgram(fresh, { ...job, script: program.script })
    if (engine.getWasmMemory().buffer.byteLength > keptModuleBytes) module = newModule()
    return outcome
  } catch (error) {
    return broke(error)
  }
}

/** Readies the next job's context, unless one is ready; a failure leaves none, and the job opens its own. */
const readyNext = async () => {
  const engine = await module
  if (ready !== undefined) return
  try {
    const opened = openFreshContext(engine, lastBounds)
    if (isFresh(opened)) ready = { engine, fresh: opened }
  } catch (error) {
    broke(error)
  }
}

/** Jobs are carried out one at a time, in the order they came; the next context is readied after each answer. */
let queue: Promise<void> = Promise.resolve()
port.on("message", (job: RunJob) => {
  queue = queue.then(async () => {
    port.postMessage(await answer(job))
    await new Promise(setImmediate)
    await readyNext()
  })
})
void module.then(async () => {
  await readyNext()
  port.postMessage(workerReady)
})
