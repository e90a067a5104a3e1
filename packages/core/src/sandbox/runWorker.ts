import { parentPort } from "node:worker_threads"
import variant from "@jitl/quickjs-wasmfile-release-sync"
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule
} from "quickjs-emscripten-core"
import { type PreparedProgram, prepareProgram } from "./prepareProgram.js"
import { type RunAnswer, type RunJob, workerReady } from "./protocol.js"
import { runProgram } from "./runProgram.js"

/**
 * A run worker (function-formats.md §1.9): keeps one QuickJS WebAssembly module warm, prepares programs (kept
 * for their next runs) and runs each job in a fresh runtime and context. A module whose memory grew past 64 MiB,
 * or whose engine broke, is replaced before the next job.
 */
const port = parentPort!
const keptModuleBytes = 64 * 1024 * 1024
const preparedKept = 64
/** The package's types describe its CommonJS build; as an ES module its default export is the variant itself. */
const syncVariant = variant as unknown as QuickJSSyncVariant
const newModule = () => newQuickJSWASMModuleFromVariant(syncVariant)
let module: Promise<QuickJSWASMModule> = newModule()
const prepared = new Map<string, PreparedProgram>()

const prepare = (job: RunJob): PreparedProgram => {
  const key = `${job.program.firstLine}\n${job.program.source}`
  const known = prepared.get(key)
  if (known !== undefined) return known
  const made = prepareProgram(job.program)
  if (prepared.size >= preparedKept) prepared.delete(prepared.keys().next().value!)
  prepared.set(key, made)
  return made
}

const answer = async (job: RunJob): Promise<RunAnswer> => {
  const program = prepare(job)
  if (program._tag === "Refused") return { _tag: "Unworkable", detail: program.detail, work: 0 }
  const engine = await module
  try {
    const outcome = runProgram(engine, { ...job, script: program.script })
    if (engine.getWasmMemory().buffer.byteLength > keptModuleBytes) module = newModule()
    return outcome
  } catch (error) {
    module = newModule()
    return { _tag: "Broke", detail: error instanceof Error ? error.message : String(error) }
  }
}

port.on("message", (job: RunJob) => {
  void answer(job).then((reply) => port.postMessage(reply))
})
void module.then(() => port.postMessage(workerReady))
