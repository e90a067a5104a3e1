import type { ManagedRuntime } from "effect"
import type { OperationServices } from "../catalog/OperationServices.js"
import type { Authenticator } from "../ports/Authenticator.js"

/** Every service a composed runtime provides to the adapters: the operations' services and the authenticator. */
export type RunLedgerServices = OperationServices | Authenticator

/** A composed runtime, as the adapters take it: `ManagedRuntime.make(RunLedger.onStore(store, settings))`. */
export type RunLedgerRuntime = ManagedRuntime.ManagedRuntime<RunLedgerServices, unknown>
