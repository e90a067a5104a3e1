/** @runledger/store-postgres: the ledger and the views of RunLedger on PostgreSQL, many instances on one database. */
import { ProjectionsLive } from "@runledger/core"
import { Layer } from "effect"
import * as PostgresLease from "./PostgresLease.js"
import * as PostgresLedger from "./PostgresLedger.js"
import type { PostgresLedgerOptions } from "./PostgresLedgerOptions.js"

export { PostgresLease, PostgresLedger }

/** The Postgres store with the core's projections: the ledger and the views, and the sweeps lease (ADR 0402). */
export const layer = (options: PostgresLedgerOptions) =>
  Layer.merge(PostgresLedger.layer(options).pipe(Layer.provide(ProjectionsLive)), PostgresLease.layer(options))
