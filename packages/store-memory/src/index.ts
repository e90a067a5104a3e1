/** @runledger/store-memory: every port of RunLedger in memory, the embedded default. */
import { ProjectionsLive } from "@runledger/core"
import { Layer } from "effect"
import * as MemoryContentStore from "./MemoryContentStore.js"
import * as MemoryLedger from "./MemoryLedger.js"

export { MemoryContentStore, MemoryLedger }

/** The memory store with the core's projections: the ledger, the views and the content store. */
export const layer = Layer.merge(MemoryLedger.layer.pipe(Layer.provide(ProjectionsLive)), MemoryContentStore.layer)
