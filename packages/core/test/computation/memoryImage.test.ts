import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import variant from "@jitl/quickjs-wasmfile-release-sync"
import { newQuickJSWASMModuleFromVariant, type QuickJSSyncVariant } from "quickjs-emscripten-core"
import { describe, expect, it } from "vitest"
import { type FreshContext, isFresh, openFreshContext } from "../../src/sandbox/freshContext.js"
import { layoutOf, type MemoryLayout } from "../../src/sandbox/memoryImage.js"
import { prepareProgram } from "../../src/sandbox/prepareProgram.js"
import { runProgram } from "../../src/sandbox/runProgram.js"
import { computationBounds, type SandboxBounds } from "../../src/sandbox/sandboxBounds.js"

const newModule = () => newQuickJSWASMModuleFromVariant(variant as unknown as QuickJSSyncVariant)

/** Reads an unsigned or signed LEB128 number of a `.wasm` file at `at`, giving it and where it ends. */
const leb = (bytes: Uint8Array, at: number, signed: boolean) => {
  let value = 0
  let shift = 0
  let byte: number
  do {
    byte = bytes[at++]!
    value |= (byte & 0x7f) << shift
    shift += 7
  } while (byte & 0x80)
  if (signed && shift < 32 && byte & 0x40) value |= -1 << shift
  return { value: signed ? value : value >>> 0, at }
}

/** The initial value of the module's first global (the stack pointer) and where its last active data segment ends. */
const wasmFacts = (bytes: Uint8Array) => {
  let stackPointer = Number.NaN
  let dataEnd = 0
  for (let at = 8; at < bytes.length; ) {
    const id = bytes[at]!
    const size = leb(bytes, at + 1, false)
    const end = size.at + size.value
    let read = leb(bytes, size.at, false)
    if (id === 6) stackPointer = leb(bytes, read.at + 3, true).value // type, mutability, i32.const
    if (id === 11) {
      for (let segment = read.value; segment > 0; segment--) {
        const kind = leb(bytes, read.at, false)
        if (kind.value !== 0) throw new Error("only active data segments of memory 0 are read here")
        const offset = leb(bytes, kind.at + 1, true) // i32.const
        const length = leb(bytes, offset.at + 1, false) // end
        dataEnd = Math.max(dataEnd, offset.value + length.value)
        read = { value: 0, at: length.at + length.value }
      }
    }
    at = end
  }
  return { stackPointer, dataEnd }
}

/** The static data and the heap of `layout`, copied now: the heap up to its last non-zero byte. */
const copyState = (bytes: Uint8Array, layout: MemoryLayout) => {
  let end = bytes.length
  while (end > layout.heapBase && bytes[end - 1] === 0) end--
  return { statics: bytes.slice(0, layout.staticEnd), heap: bytes.slice(layout.heapBase, end) }
}

const run = (fresh: FreshContext, source: string, bounds: SandboxBounds = computationBounds) => {
  const program = prepareProgram({ source, firstLine: 1 })
  if (program._tag !== "Script") throw new Error(program.detail)
  return runProgram(fresh, {
    script: program.script,
    inputJson: "7",
    now: 1_000,
    deadline: Date.now() + 10_000,
    bounds
  })
}

describe("the memory layout of the QuickJS build (decision 0235)", () => {
  it("recognises the installed build, as its .wasm file lays out its memory", async () => {
    const layout = layoutOf(await newModule())
    if (layout === undefined) throw new Error("the installed QuickJS build is not a known one")
    const wasm = readFileSync(createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm"))
    const facts = wasmFacts(wasm)
    expect(layout.heapBase).toBe(facts.stackPointer)
    expect(layout.dataEnd).toBe(facts.dataEnd)
    expect(layout.staticEnd).toBeGreaterThanOrEqual(layout.dataEnd)
  })

  it("does not recognise a module whose data is not the build's", async () => {
    const module = await newModule()
    new Uint8Array(module.getWasmMemory().buffer)[2_000] ^= 1
    expect(layoutOf(module)).toBeUndefined()
  })
})

/** On this thread, whose stack is Node's default: a deep recursion is left to the worker's tests (warmWorker). */
describe("a kept context", () => {
  it("is put back byte for byte after every run, whatever the run did", async () => {
    const module = await newModule()
    const layout = layoutOf(module)!
    const fresh = openFreshContext(module, computationBounds, layout)
    if (!isFresh(fresh)) throw new Error(JSON.stringify(fresh))
    const before = copyState(new Uint8Array(module.getWasmMemory().buffer), layout)
    const probe =
      "export default (input: number) => [input, Date.now(), typeof (globalThis as any).left, ({} as any).polluted ?? 'clean', Object.getOwnPropertyNames(globalThis).length]"
    const first = run(fresh, probe)
    expect(first).toEqual({ _tag: "Ran", json: '[7,1000,"undefined","clean",55]', work: expect.any(Number) })
    const endings = [
      run(
        fresh,
        "export default () => { (globalThis as any).left = 1; (Object.prototype as any).polluted = 1; return 0 }"
      ),
      run(fresh, "export default () => 'x'.repeat(16 * 1024 * 1024).length", {
        ...computationBounds,
        memoryBytes: 8 * 1024 * 1024
      }),
      run(fresh, "export default () => 'x'.repeat(40 * 1024 * 1024).length"),
      run(fresh, "export default () => { while (true) {} }", { ...computationBounds, work: 50 }),
      run(fresh, "export default () => { throw new Error('no') }")
    ]
    expect(endings.map((ending) => ending._tag)).toEqual(["Ran", "Unworkable", "Ran", "Unworkable", "Unworkable"])
    expect(module.getWasmMemory().buffer.byteLength).toBeGreaterThan(before.statics.length + 40 * 1024 * 1024)
    const after = new Uint8Array(module.getWasmMemory().buffer)
    expect(Buffer.compare(after.subarray(0, layout.staticEnd), before.statics)).toBe(0)
    expect(Buffer.compare(after.subarray(layout.heapBase, layout.heapBase + before.heap.length), before.heap)).toBe(0)
    expect(run(fresh, probe)).toEqual(first)
  })
})
