import { createHash } from "node:crypto"
import type { QuickJSWASMModule } from "quickjs-emscripten-core"

/**
 * Where a QuickJS WebAssembly build keeps its state in its module's linear memory (decision 0235): the C globals
 * (QuickJS's, the allocator's, the C library's) below `staticEnd`, the C stack from there up to `heapBase` (it holds
 * nothing between two calls into the module), and the allocator's heap from `heapBase` up.
 */
export interface MemoryLayout {
  /** SHA-256, in hex, of the bytes below `dataEnd` of a module just instantiated: which build this is. */
  readonly fingerprint: string
  /** The end of the build's initialised data; the BSS after it holds what the module's start-up wrote. */
  readonly dataEnd: number
  readonly staticEnd: number
  readonly heapBase: number
}

/**
 * The builds whose layout is known. `@jitl/quickjs-wasmfile-release-sync` 0.32.0: initialised data ends at 87,227,
 * BSS at 90,208, then a 5 MiB stack, whose top, 5,333,088, is the initial stack pointer (the module's only global)
 * and the heap's base.
 * Decision 0235 says how they were read from the `.wasm` file; another build is not recognised, and its runs each
 * open a new runtime and context instead.
 */
const knownLayouts: ReadonlyArray<MemoryLayout> = [
  {
    fingerprint: "9943474eb6d15dde70af9ce144f5f50a1e8a0faef0cdf77fd26e1335e52f4edb",
    dataEnd: 87_227,
    staticEnd: 90_208,
    heapBase: 5_333_088
  }
]

const bytesOf = (module: QuickJSWASMModule) => new Uint8Array(module.getWasmMemory().buffer)

/**
 * The layout of `module`'s build if it is a known one. Only a module just instantiated can be recognised: its
 * initialised data is the build's own until a runtime is opened in it. (The BSS cannot tell: the module's start-up
 * writes pointers there that depend on the process, such as the length of its script's path.)
 */
export const layoutOf = (module: QuickJSWASMModule): MemoryLayout | undefined => {
  const bytes = bytesOf(module)
  return knownLayouts.find(
    (layout) =>
      bytes.length > layout.heapBase &&
      createHash("sha256").update(bytes.subarray(0, layout.dataEnd)).digest("hex") === layout.fingerprint
  )
}

/** A copy of the memory a module's QuickJS state lives in, to put back after each run (decision 0235). */
export interface MemoryImage {
  /** Where the copied heap ends: the heap's extent when it was copied, to a page boundary. */
  readonly heapEnd: number
  /** Writes the copy back over the static data and the heap; the module must not be inside a call. */
  readonly restore: () => void
}

/** Bytes past the last written byte of the heap copied as well, so the copy ends on a page boundary. */
const pageBytes = 4_096

/**
 * Copies `module`'s static data and its heap. The module must have done nothing since it was instantiated but
 * build the state to keep: its memory past the heap's last allocation has then never been written and is zero,
 * so the heap's extent is where the last non-zero byte is (the allocator's free top chunk begins with a non-zero
 * header right after the last allocation).
 */
export const captureImage = (module: QuickJSWASMModule, layout: MemoryLayout): MemoryImage => {
  const bytes = bytesOf(module)
  const words = new Uint32Array(bytes.buffer, 0, bytes.length >>> 2)
  let end = words.length
  while (end * 4 > layout.heapBase && words[end - 1] === 0) end--
  const heapEnd = Math.min(bytes.length, Math.ceil((end * 4) / pageBytes) * pageBytes)
  const statics = bytes.slice(0, layout.staticEnd)
  const heap = bytes.slice(layout.heapBase, heapEnd)
  return {
    heapEnd,
    restore: () => {
      const now = bytesOf(module)
      now.set(statics, 0)
      now.set(heap, layout.heapBase)
    }
  }
}
