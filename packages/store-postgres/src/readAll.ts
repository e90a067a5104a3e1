import type { SqlError } from "@effect/sql/SqlError"
import type { PgClient } from "@effect/sql-pg/PgClient"
import type { GlobalRead, InvalidPosition, PositionedFact } from "@runledger/core"
import { Effect } from "effect"
import { type FactRow, factColumns, toPositionedFact } from "./factRows.js"
import { decodePosition } from "./position.js"
import type { Tables } from "./Tables.js"

/** A `LIKE` pattern matching the texts that begin with `prefix`, its wildcards escaped. */
const startsWith = (prefix: string): string => `${prefix.replace(/[\\%_]/g, "\\$&")}%`

/**
 * Reads the global order: facts in (transaction id, global position) order, only those of transactions older than
 * every transaction still running (`pg_snapshot_xmin` of the current snapshot). Every fact below that horizon has
 * committed or never will, so a reader that pages forward never passes a fact that commits later.
 */
export const readAll = (
  sql: PgClient,
  tables: Tables,
  read: GlobalRead
): Effect.Effect<ReadonlyArray<PositionedFact>, SqlError | InvalidPosition> =>
  Effect.gen(function* () {
    const filter = read.filter ?? {}
    if (read.limit <= 0 || filter.types?.length === 0) return []
    const forward = read.direction === "forward"
    const conditions = [sql`tx < pg_snapshot_xmin(pg_current_snapshot())`]
    if (read.from !== undefined) {
      const from = yield* decodePosition(read.from)
      conditions.push(
        forward
          ? sql`(tx, global_position) > (${from.tx}::xid8, ${from.globalPosition}::bigint)`
          : sql`(tx, global_position) < (${from.tx}::xid8, ${from.globalPosition}::bigint)`
      )
    }
    if (filter.streamPrefix !== undefined) conditions.push(sql`stream LIKE ${startsWith(filter.streamPrefix)}`)
    if (filter.types !== undefined) conditions.push(sql`type = ANY(${filter.types}::text[])`)
    if (filter.correlationId !== undefined) conditions.push(sql`metadata->>'correlation_id' = ${filter.correlationId}`)
    const rows = yield* sql<FactRow>`SELECT ${factColumns(sql)} FROM ${tables.facts}
      WHERE ${sql.and(conditions)}
      ORDER BY ${forward ? sql`tx, global_position` : sql`tx DESC, global_position DESC`}
      LIMIT ${Math.floor(read.limit)}`
    return rows.map(toPositionedFact)
  })
