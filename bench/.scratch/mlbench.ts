import { Ledger, ProjectionsLive } from "@runledger/core"
import { Context, Effect, Layer } from "effect"
import * as O from "./ML_orig.ts"
import * as A from "./ML_assign.ts"
import * as P from "./ML_nopub.ts"
import { makeWorkload } from "../ledger/workload.ts"
import { median } from "../ledger/measure.ts"
const w = makeWorkload("single", 1000, 20, 1)
const variants = { orig: O.layer, assign: A.layer, nopub: P.layer }
const res: Record<string, number[]> = {}
for (let r = 0; r < 5; r++)
  for (const [name, l] of Object.entries(variants)) {
    await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
      const ledger = Context.get(yield* Layer.build(l.pipe(Layer.provide(ProjectionsLive))), Ledger)
      const t = performance.now()
      yield* Effect.forEach(w.appends, (a) => ledger.append([a]), { discard: true })
      ;(res[name] ??= []).push(w.facts / ((performance.now() - t) / 1000))
    })))
  }
for (const [k, v] of Object.entries(res)) console.log(k, Math.round(median(v)), v.map(Math.round).join(" "))
