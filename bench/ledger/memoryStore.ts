import { Ledger } from "@runledger/core"
import * as MemoryStore from "@runledger/store-memory"
import { Context, Effect, Layer, type Scope } from "effect"
import { ledgerContender } from "./ledgerContender.js"
import { memoryFloor } from "./memoryFloor.js"
import type { Pair } from "./repetitions.js"

/** A fresh memory ledger (with the core's projections) beside a fresh plain-array floor. */
export const openMemory: Effect.Effect<Pair, never, Scope.Scope> = Effect.map(
  Layer.build(MemoryStore.layer),
  (context): Pair => ({ ledger: ledgerContender(Context.get(context, Ledger)), baseline: memoryFloor() })
)
