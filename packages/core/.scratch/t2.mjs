import { newQuickJSWASMModuleFromVariant, DefaultIntrinsics } from "quickjs-emscripten-core"
import variant from "@jitl/quickjs-wasmfile-release-sync"
import { isMainThread } from "node:worker_threads"
const mod = await newQuickJSWASMModuleFromVariant(variant)
const rt = mod.newRuntime()
rt.setMemoryLimit(256 * 1024 * 1024)
rt.setMaxStackSize(1024 * 1024)
let count = 0
const budget = Number(process.env.BUDGET ?? 2000)
rt.setInterruptHandler(() => { count++; return count > budget })
const ctx = rt.newContext({ intrinsics: { ...DefaultIntrinsics, Promise: false } })
const show = (code) => { count = 0; const t = performance.now(); let v; try { const r = ctx.evalCode(code); if (r.error) { v = ["ERR", ctx.dump(r.error)]; r.error.dispose() } else { v = ctx.dump(r.value); r.value.dispose() } } catch (e) { v = ["HOST", String(e)] } console.log(JSON.stringify(code).slice(0,70), "=>", JSON.stringify(v)?.slice(0,200), "count", count, "ms", (performance.now()-t).toFixed(1)) }
console.log("main", isMainThread)
show("(function(){ let i=0; while(true){i++} })()")
show("(function(){ let i=0; for(;i<1e6;i++){}; return i })()")
show("(function(){ const a=[]; for(let i=0;i<1e6;i++){a.push(i)}; return a.map(x=>x*2).length })()")
show("(function(){ function f(n){return n===0?0:1+f(n-1)}; return f(1e6) })()")
show("(function(){ let d=0; try { (function h(){ d++; h() })() } catch(e) { return [d, String(e)] } })()")
show("'x'.repeat(2**28).length")
show("(function(){const a=[]; for(let i=0;i<1e8;i++) a.push({i}); return a.length})()")
show("new Array(1e9).fill(0).length")
show("[1,2,3].toSorted((a,b)=>b-a).join() + typeof Map.groupBy + typeof Object.groupBy + typeof new Set().union + typeof Iterator.prototype.map")
show("new Date(2026,0,1).getHours()")
show("/(a+)+$/.test('a'.repeat(40)+'b')")
show("1+1")
