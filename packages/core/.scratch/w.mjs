import { Worker } from "node:worker_threads"
const w = new Worker(new URL("./t2.mjs", import.meta.url), { resourceLimits: { stackSizeMb: 64, maxOldGenerationSizeMb: 256 } })
w.on("exit", (c) => console.log("exit", c)); w.on("error", (e) => console.log("worker error", e))
