import * as PgClient from "@effect/sql-pg/PgClient"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"

/** A pool of the driver the stores use (`@effect/sql-pg`), open until `close`. */
export interface PgPool {
  readonly sql: PgClient.PgClient
  readonly close: () => Promise<void>
}

/** Opens a pool of `maxConnections` on `url`. */
export const openPgPool = async (url: string, maxConnections: number): Promise<PgPool> => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(
    Layer.buildWithScope(PgClient.layer({ url: Redacted.make(url), maxConnections }), scope)
  )
  return { sql: Context.get(context, PgClient.PgClient), close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
