import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core"
import variant from "@jitl/quickjs-wasmfile-release-sync"
const mod = await newQuickJSWASMModuleFromVariant(variant)
const ctx = mod.newContext()
const r = ctx.evalCode("Object.getOwnPropertyNames(globalThis).join(' ') + ' | ' + ['isWellFormed','at'].map(k=>typeof ''[k]).join() + typeof Array.fromAsync + typeof Iterator.from + typeof Promise.withResolvers + typeof Object.hasOwn + typeof Array.prototype.findLast + typeof structuredClone + typeof Error.captureStackTrace + typeof Error.prototype.stack")
console.log(ctx.dump(r.value))
const t=performance.now(); const ts = await import("typescript"); console.log("ts import ms", performance.now()-t)
const t2=performance.now(); await import("ts-blank-space"); console.log("blank ms", performance.now()-t2)
