import type { Fragment } from "@effect/sql/Statement"
import type { PgClient } from "@effect/sql-pg/PgClient"

/**
 * The leading expression of the index a page of a view walks (ADR 0013), as raw SQL for the same reason as
 * `factIndexes.ts`: the migration that creates the index and every page that walks it take it from here.
 */

/**
 * One text per partition of a view, whatever their names hold: the view's length, a colon, the view, the partition
 * (migration `5_partition_order`). Bounds on this one column stop a page's scan at its partition's ends, which bounds
 * on `(view, partition)` do not: PostgreSQL 15 ends a scan on a row comparison only where its first column decides.
 */
export const partitionKeySql = "(length(view)::text || ':' || view || partition)"

/** The key of a partition, `partitionKeySql` of a view and a partition given as parameters. */
export const partitionKeyOf = (sql: PgClient, view: string, partition: string): Fragment =>
  sql`(length(${view}::text)::text || ':' || ${view}::text || ${partition}::text)`
