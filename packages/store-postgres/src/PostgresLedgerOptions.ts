import { ConfigError, Effect } from "effect"

/** How the Postgres store connects and where its tables live. */
export interface PostgresLedgerOptions {
  /** A `postgres://` connection URL. */
  readonly url: string
  /** The PostgreSQL schema of the store's tables (default `public`); created when missing. */
  readonly schema?: string
  /** The most connections the pool opens (default 10); LISTEN uses one more. */
  readonly maxConnections?: number
}

/** A schema name the store accepts: a lowercase identifier short enough to name its NOTIFY channel. */
const schemaName = /^[a-z_][a-z0-9_]{0,47}$/

/** The schema to use, or a `ConfigError` naming what is wrong with it. */
export const resolveSchema = (options: PostgresLedgerOptions): Effect.Effect<string, ConfigError.ConfigError> => {
  const schema = options.schema ?? "public"
  return schemaName.test(schema)
    ? Effect.succeed(schema)
    : Effect.fail(
        ConfigError.InvalidData(
          ["schema"],
          `Expected a lowercase identifier of at most 48 characters (a-z, 0-9, _), got ${JSON.stringify(schema)}`
        )
      )
}
