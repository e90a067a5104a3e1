import { newQuickJSWASMModuleFromVariant, DefaultIntrinsics } from "quickjs-emscripten-core"
import variant from "@jitl/quickjs-wasmfile-release-sync"
const mod = await newQuickJSWASMModuleFromVariant(variant)
const rt = mod.newRuntime()
let count = 0
rt.setInterruptHandler(() => { count++; return false })
const ctx = rt.newContext()
for (let k = 0; k < 5; k++) {
const t = performance.now(); count = 0
const r = ctx.evalCode("(function(){ let i=0; for(;i<1e6;i++){}; return i })()"); r.value?.dispose()
console.log("ms", (performance.now()-t).toFixed(1), count)
}
