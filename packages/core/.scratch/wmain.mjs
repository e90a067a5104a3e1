import { Worker } from "node:worker_threads"
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
const t = performance.now()
const req = createRequire(import.meta.url)
const api = pathToFileURL(req.resolve("tsx/esm/api")).href.replace(/index\.cjs$/, "index.mjs")
const url = new URL("./wk.ts", import.meta.url).href
const code = `import(${JSON.stringify(api)}).then((api) => { api.register(); return import(${JSON.stringify(url)}) })`
const w = new Worker(code, { eval: true })
w.on("message", (m) => { console.log("msg", m, performance.now() - t); w.terminate() })
w.on("error", (e) => console.log("err", e))
