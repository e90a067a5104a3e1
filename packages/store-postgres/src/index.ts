/** @runledger/store-postgres: the ledger and the views of RunLedger on PostgreSQL, many instances on one database. */
import { ProjectionsLive } from "@runledger/core"
import { Layer } from "effect"
import * as PostgresLedger from "./PostgresLedger.js"
import type { PostgresLedgerOptions } from "./PostgresLedgerOptions.js"

export { PostgresLedger }

/** The Postgres store with the core's projections: the ledger and the views. */
export const layer = (options: PostgresLedgerOptions) =>
  PostgresLedger.layer(options).pipe(Layer.provide(ProjectionsLive))
