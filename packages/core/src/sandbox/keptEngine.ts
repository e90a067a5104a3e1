import variant from "@jitl/quickjs-wasmfile-release-sync"
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule
} from "quickjs-emscripten-core"
import { layoutOf, type MemoryLayout } from "./memoryImage.js"

/** The package's types describe its CommonJS build; as an ES module its default export is the variant itself. */
const syncVariant = variant as unknown as QuickJSSyncVariant

/** WebAssembly memory never shrinks: a module that grew past this much is replaced before it is used again. */
const keptModuleBytes = 64 * 1024 * 1024

/**
 * A QuickJS module, and the context it keeps when its build's layout is known: the computation sandbox's run
 * context (ADR 0235) or the workflow expressions' (ADR 0264).
 */
export interface KeptEngine<Context> {
  readonly module: QuickJSWASMModule
  readonly kept: Context | undefined
}

/**
 * A new module and, when its build is one whose layout is known, the context `open` opens first thing in it
 * (undefined from `open`: none kept, so each use opens its own).
 */
export const newKeptEngine = async <Context>(
  open: (module: QuickJSWASMModule, layout: MemoryLayout) => Context | undefined
): Promise<KeptEngine<Context>> => {
  const module = await newQuickJSWASMModuleFromVariant(syncVariant)
  const layout = layoutOf(module)
  return { module, kept: layout === undefined ? undefined : open(module, layout) }
}

/** Whether a module's memory grew past what a kept module may hold, so it must be replaced. */
export const grewTooLarge = (module: QuickJSWASMModule): boolean =>
  module.getWasmMemory().buffer.byteLength > keptModuleBytes
