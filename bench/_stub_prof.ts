import { toWebHandler } from "@runledger/adapter-http"
import { FormatsLive, RunLedger, Sandbox, QuickJsSandbox } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Effect, Layer, ManagedRuntime } from "effect"
const stub = Layer.succeed(Sandbox, Sandbox.of({ run: (r) => Effect.succeed({ output: { twice: 4 }, outputBytes: 11, work: 0 }), check: () => Effect.succeed([]) }))
const real = QuickJsSandbox.layer({ runWorkers: Number(process.env.W ?? 2) })
const runtime = ManagedRuntime.make(RunLedger.onStore(MemoryStore.layer, {}, FormatsLive.pipe(Layer.provide(process.env.STUB ? stub : real))))
const handler = toWebHandler(runtime)
const send = async (method: string, path: string, body?: unknown) => {
  const res = await handler(new Request(`http://bench${path}`, { method, headers: { "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }), { remoteAddress: "127.0.0.1" })
  const text = await res.text(); if (res.status >= 300) throw new Error(`${res.status} ${text}`); return JSON.parse(text)
}
await send("POST", "/v1/orgs/local/playbooks", { playbook: "bench", name: "bench" })
const base = "/v1/orgs/local/playbooks/bench"
await send("POST", `${base}/definitions/computation`, { name: "twice", diagram: "none", overview: "Twice.", source: "---\ndescription: Twice\nlanguage: typescript\n---\nexport default function (input: Json): Json {\n  return { twice: (input as { n: number }).n * 2 };\n}\n" })
const run = () => send("POST", `${base}/definitions/computation/twice/run`, { input: { n: 2 } })
console.log(await run())
for (let i = 0; i < 200; i++) await run()
for (let b = 0; b < 6; b++) { const s0 = performance.now(); for (let i = 0; i < 300; i++) await run(); console.log("batch", b, ((performance.now() - s0) / 300).toFixed(3)) }
const N = 2000
let s = performance.now(); for (let i = 0; i < N; i++) await run(); console.log("seq", ((performance.now() - s) / N).toFixed(3), "ms/run")
s = performance.now(); await Promise.all(Array.from({ length: 8 }, async () => { for (let i = 0; i < N / 8; i++) await run() })); console.log("8 in flight", (N / ((performance.now() - s) / 1000)).toFixed(0), "runs/s")
await runtime.dispose()
