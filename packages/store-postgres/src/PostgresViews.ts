import type { PgClient } from "@effect/sql-pg/PgClient"
import { type Projection, type ViewDoc, type ViewListing, Views } from "@runledger/core"
import { Effect, Option } from "effect"
import { type FactRow, factColumns, toFact } from "./factRows.js"
import { projectFacts } from "./projectFacts.js"
import type { Tables } from "./Tables.js"
import { unavailable } from "./unavailable.js"
import { partitionKeyOf, partitionKeySql } from "./viewIndexes.js"

/**
 * The statement of a page of a view's partition, written so that PostgreSQL walks `runledger_views_partition_order`
 * (partition key, sort, id) in order with or without statistics (ADR 0013): the partition and the bound are a row
 * comparison on the index's columns and a bound on the key, whose first columns are not strict, so the planner takes
 * them for at least the whole partition (a third of the table each without statistics) and never finds sorting the
 * partition cheaper than walking it; the bound document itself is left out by `<>`. The lower bound is always a row
 * comparison, so the two bounds are never taken together for a narrow range of the key.
 */
export const listStatement = (sql: PgClient, tables: Tables, view: string, partition: string, listing: ViewListing) => {
  const ascending = listing.direction === "ascending"
  const after = listing.after
  const column = sql.literal(partitionKeySql)
  const key = partitionKeyOf(sql, view, partition)
  const conditions = [
    after !== undefined && ascending
      ? sql`(${column}, sort, id) >= (${key}, ${after.sort}, ${after.id})`
      : sql`(${column}, sort, id) >= (${key}, '', '')`,
    after !== undefined && !ascending
      ? sql`(${column}, sort, id) <= (${key}, ${after.sort}, ${after.id})`
      : sql`${column} <= ${key}`
  ]
  if (after !== undefined) conditions.push(sql`(sort, id) <> (${after.sort}, ${after.id})`)
  return sql<ViewDoc>`SELECT id, sort, data FROM ${tables.views}
    WHERE ${sql.and(conditions)}
    ORDER BY ${ascending ? sql`${column}, sort, id` : sql`${column} DESC, sort DESC, id DESC`}
    LIMIT ${Math.max(0, Math.floor(listing.limit))}`
}

/** How many facts a rebuild folds per batch. */
const rebuildBatch = 1000

/**
 * The views on PostgreSQL: documents in `runledger_views`, listed in (sort, id) order under the `"C"` collation
 * (JavaScript's string order). A rebuild locks the table against appends' projections, deletes every document and
 * folds every fact of a projected type in global order, in batches, in one transaction.
 */
export const makeViews = (sql: PgClient, tables: Tables, projections: ReadonlyArray<Projection>) => {
  const projectedTypes = [...new Set(projections.flatMap((projection) => projection.types))]

  const rebuild = Effect.gen(function* () {
    yield* sql`LOCK TABLE ${tables.views} IN EXCLUSIVE MODE`
    yield* sql`DELETE FROM ${tables.views}`
    let after: FactRow | undefined
    for (;;) {
      const rows: ReadonlyArray<FactRow> = yield* sql<FactRow>`SELECT ${factColumns(sql)} FROM ${tables.facts}
        WHERE type = ANY(${projectedTypes}::text[])
          AND ${after === undefined ? sql`true` : sql`(tx, global_position) > (${after.tx_text}::xid8, ${after.global_position_text}::bigint)`}
        ORDER BY tx, global_position
        LIMIT ${rebuildBatch}`
      if (rows.length === 0) return
      yield* projectFacts(sql, tables, projections, rows.map(toFact))
      after = rows[rows.length - 1]
    }
  })

  return Views.of({
    get: (key) =>
      sql<ViewDoc>`SELECT id, sort, data FROM ${tables.views}
        WHERE view = ${key.view} AND partition = ${key.partition} AND id = ${key.id}`.pipe(
        Effect.map((rows) => Option.fromNullable(rows[0])),
        unavailable("reading a view document")
      ),
    list: (view, partition, listing) =>
      listStatement(sql, tables, view, partition, listing).pipe(unavailable("listing a view")),
    rebuild: sql.withTransaction(rebuild).pipe(unavailable("rebuilding the views"))
  })
}
