import * as PgClient from "@effect/sql-pg/PgClient"
import { Context, Effect, Layer } from "effect"
import { clientLayer } from "../ledger/postgresStore.js"

/** Runs a statement on the database at `url`, on a client of its own, closed after. */
export const onDatabase = <A>(url: string, statement: (sql: PgClient.PgClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(Layer.build(clientLayer(url)), (context) => statement(Context.get(context, PgClient.PgClient)))
    )
  )
