/** @runledger/store-memory: every port of RunLedger in memory, the embedded default. */
import { ProjectionsLive } from "@runledger/core"
import { Layer } from "effect"
import * as MemoryLedger from "./MemoryLedger.js"

export { MemoryLedger }

/** The memory store with the core's projections: the ledger and the views. */
export const layer = MemoryLedger.layer.pipe(Layer.provide(ProjectionsLive))
