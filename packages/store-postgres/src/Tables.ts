import type { Fragment } from "@effect/sql/Statement"
import type { PgClient } from "@effect/sql-pg/PgClient"

/** The store's tables in its schema, as identifiers to interpolate into statements. */
export interface Tables {
  readonly schema: string
  readonly facts: Fragment
  readonly views: Fragment
  /** The content store's texts (tool-call arguments and answers), by owner and digest. */
  readonly content: Fragment
  /** The migrator's bookkeeping table, as the qualified name it takes. */
  readonly migrations: string
}

/** The tables of a schema. */
export const makeTables = (sql: PgClient, schema: string): Tables => ({
  schema,
  facts: sql`${sql(`${schema}.runledger_facts`)}`,
  views: sql`${sql(`${schema}.runledger_views`)}`,
  content: sql`${sql(`${schema}.runledger_content`)}`,
  migrations: `${schema}.runledger_migrations`
})
