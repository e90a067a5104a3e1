import { newQuickJSWASMModuleFromVariant, DefaultIntrinsics } from "quickjs-emscripten-core"
import variant from "@jitl/quickjs-wasmfile-release-sync"
const mod = await newQuickJSWASMModuleFromVariant(variant)
console.log(typeof mod.getWasmMemory, mod.getWasmMemory?.().buffer.byteLength)
const rt = mod.newRuntime(); rt.setMemoryLimit(64*1024*1024)
let n=0; rt.setInterruptHandler(()=> ++n > 50)
const ctx = rt.newContext({ intrinsics: { ...DefaultIntrinsics, Promise: false } })
const show = (code) => { n=0; let v; try { const r = ctx.evalCode(code, "main.js"); if (r.error) { v = ["ERR", ctx.dump(r.error)]; r.error.dispose() } else { v = ctx.dump(r.value); r.value.dispose() } } catch (e) { v = ["HOST", String(e)] } console.log(JSON.stringify(code).slice(0,70), "=>", JSON.stringify(v)?.slice(0,250)) }
show("typeof Promise")
show("(async function(){ return 1 })()")
show("try { while(true){} } catch (e) { 'caught' }")
show("(function(){ try { 'x'.repeat(2**27) } catch (e) { return 'caught ' + e } })()")
show("Function.prototype.constructor = function(){ throw new TypeError('no') }; (function(){}).constructor('return 1')")
show("\n\n(function(){ function f() { throw new RangeError('bad') }\n f() })()")
show("var s = 'é'; s")
