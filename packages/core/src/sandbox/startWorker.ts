import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
import { type ResourceLimits, Worker } from "node:worker_threads"

/** The worker entries of the sandbox, built by tsup as `dist/sandbox/<name>.js`. */
export type WorkerName = "runWorker" | "checkerWorker"

/**
 * Starts a sandbox worker from the built file beside the bundle (`dist/sandbox/<name>.js`), or, when this module
 * runs from its TypeScript source (tests), from `src/sandbox/<name>.ts` through tsx's loader.
 */
export const startWorker = (name: WorkerName, resourceLimits: ResourceLimits): Worker => {
  const here = import.meta.url
  if (!here.endsWith(".ts")) return new Worker(new URL(`./sandbox/${name}.js`, here), { resourceLimits })
  const loader = pathToFileURL(createRequire(here).resolve("tsx/esm/api")).href.replace(/\.cjs$/, ".mjs")
  const entry = new URL(`./${name}.ts`, here).href
  const boot = `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}) })`
  return new Worker(boot, { eval: true, resourceLimits })
}
