import { Ledger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Layer } from "effect"
import { makeWorkload } from "../ledger/workload.ts"

const w = makeWorkload("single", 1000, 20, 1)
for (let i = 0; i < 4; i++) {
  await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const ledger = Context.get(yield* Layer.build(MemoryStore.layer), Ledger)
        const t = performance.now()
        yield* Effect.forEach(w.appends, (a) => ledger.append([a]), { discard: true })
        console.log(Math.round(w.facts / ((performance.now() - t) / 1000)))
      })
    )
  )
}
