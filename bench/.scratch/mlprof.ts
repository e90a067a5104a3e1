import { Ledger, ProjectionsLive } from "@runledger/core"
import { Context, Effect, Layer } from "effect"
import * as A from "./ML_assign.ts"
import { makeWorkload } from "../ledger/workload.ts"
const w = makeWorkload("single", 1000, 20, 1)
for (let r = 0; r < 4; r++)
    await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
      const ledger = Context.get(yield* Layer.build(A.layer.pipe(Layer.provide(ProjectionsLive))), Ledger)
      yield* Effect.forEach(w.appends, (a) => ledger.append([a]), { discard: true })
    })))
