import type { SqlError } from "@effect/sql/SqlError"
import type { Fragment } from "@effect/sql/Statement"
import type { PgClient } from "@effect/sql-pg/PgClient"
import {
  type GlobalFilter,
  type GlobalRead,
  type InvalidPosition,
  type PositionedFact,
  streamOwner
} from "@runledger/core"
import { Effect } from "effect"
import { correlationSql, streamOwnerSql } from "./factIndexes.js"
import { type FactRow, factColumns, toPositionedFact } from "./factRows.js"
import { decodePosition, type PgPosition } from "./position.js"
import type { Tables } from "./Tables.js"

/** A `LIKE` pattern matching the texts that begin with `prefix`, its wildcards escaped. */
const startsWith = (prefix: string): string => `${prefix.replace(/[\\%_]/g, "\\$&")}%`

/** The horizon: transactions older than every transaction still running (`pg_snapshot_xmin` of this snapshot). */
const horizon = "pg_snapshot_xmin(pg_current_snapshot())"

/**
 * The index a filtered read walks (ADR 0012): the facts of one chain (`correlation_id`) or of one owner
 * (`streamOwner` of the prefix), each in (tx, global position) order behind its leading expression.
 */
interface Walk {
  readonly expression: string
  readonly value: string
  /** Whether the walk alone keeps exactly the prefix's facts (the prefix is the owner), so no `LIKE` is needed. */
  readonly coversPrefix: boolean
}

/** The walk of a filter: its chain when it names one (the narrower), else its prefix's owner, else none. */
const walkOf = (filter: GlobalFilter): Walk | undefined => {
  if (filter.correlationId !== undefined)
    return { expression: correlationSql, value: filter.correlationId, coversPrefix: filter.streamPrefix === undefined }
  const owner = filter.streamPrefix === undefined ? undefined : streamOwner(filter.streamPrefix)
  return owner === undefined
    ? undefined
    : { expression: streamOwnerSql, value: owner, coversPrefix: owner === filter.streamPrefix }
}

/**
 * The statement of a read of the global order: facts in (transaction id, global position) order, only those of
 * transactions older than every transaction still running (the horizon). Every fact below the horizon has
 * committed or never will, so a reader that pages forward never passes a fact that commits later.
 */
export const readAllStatement = (sql: PgClient, tables: Tables, read: GlobalRead, from: PgPosition | undefined) => {
  const filter = read.filter ?? {}
  const walk = walkOf(filter)
  const limit = Math.floor(read.limit)
  return walk === undefined
    ? globalOrderStatement(sql, tables, read.direction, filter, from, limit)
    : walkStatement(sql, tables, read.direction, filter, walk, from, limit)
}

/** A read with no owner or chain to walk: the whole global order's index, the filters applied to each fact. */
const globalOrderStatement = (
  sql: PgClient,
  tables: Tables,
  direction: GlobalRead["direction"],
  filter: GlobalFilter,
  from: PgPosition | undefined,
  limit: number
) => {
  const forward = direction === "forward"
  const conditions = [sql`tx < ${sql.literal(horizon)}`]
  if (from !== undefined)
    conditions.push(
      forward
        ? sql`(tx, global_position) > (${from.tx}::xid8, ${from.globalPosition}::bigint)`
        : sql`(tx, global_position) < (${from.tx}::xid8, ${from.globalPosition}::bigint)`
    )
  if (filter.streamPrefix !== undefined) conditions.push(sql`stream LIKE ${startsWith(filter.streamPrefix)}`)
  if (filter.types !== undefined) conditions.push(sql`type = ANY(${filter.types}::text[])`)
  return sql<FactRow>`SELECT ${factColumns(sql)} FROM ${tables.facts}
    WHERE ${sql.and(conditions)}
    ORDER BY ${forward ? sql`tx, global_position` : sql`tx DESC, global_position DESC`}
    LIMIT ${limit}`
}

/**
 * A read that walks one owner's or one chain's index, written so that PostgreSQL walks it in order with or without
 * statistics (ADR 0012): the walk is bounded by two row comparisons on the index's columns whose first columns are
 * not strict (estimated at least as wide as the owner's facts, a third of the table without statistics), the horizon
 * is `(horizon, 0)` in the upper bound (a backward read's `from` when it is lower), the read's own bound is left out
 * by `<>`, and the other filters are wrapped in `COALESCE`, which the planner can neither index nor estimate (it
 * takes half). A sort of the owner's facts never looks cheaper than the walk.
 */
const walkStatement = (
  sql: PgClient,
  tables: Tables,
  direction: GlobalRead["direction"],
  filter: GlobalFilter,
  walk: Walk,
  from: PgPosition | undefined,
  limit: number
) => {
  const key = sql.literal(walk.expression)
  const value = walk.value
  const xmin = sql.literal(horizon)
  const conditions: Array<Fragment> = []
  if (direction === "forward") {
    conditions.push(
      from === undefined
        ? sql`${key} >= ${value}`
        : sql`(${key}, tx, global_position) >= (${value}, ${from.tx}::xid8, ${from.globalPosition}::bigint)`,
      sql`(${key}, tx, global_position) <= (${value}, ${xmin}, 0)`
    )
  } else {
    const bound =
      from === undefined
        ? sql`${xmin}, 0`
        : sql`CASE WHEN ${from.tx}::xid8 < ${xmin} THEN ${from.tx}::xid8 ELSE ${xmin} END,
            CASE WHEN ${from.tx}::xid8 < ${xmin} THEN ${from.globalPosition}::bigint ELSE 0 END`
    conditions.push(sql`(${key}, tx, global_position) <= (${value}, ${bound})`, sql`${key} >= ${value}`)
  }
  if (from !== undefined)
    conditions.push(sql`(tx, global_position) <> (${from.tx}::xid8, ${from.globalPosition}::bigint)`)
  if (filter.streamPrefix !== undefined && !walk.coversPrefix)
    conditions.push(sql`COALESCE(stream LIKE ${startsWith(filter.streamPrefix)}, false)`)
  if (filter.types !== undefined) conditions.push(sql`COALESCE(type = ANY(${filter.types}::text[]), false)`)
  const order =
    direction === "forward" ? sql`${key}, tx, global_position` : sql`${key} DESC, tx DESC, global_position DESC`
  return sql<FactRow>`SELECT ${factColumns(sql)} FROM ${tables.facts}
    WHERE ${sql.and(conditions)}
    ORDER BY ${order}
    LIMIT ${limit}`
}

/** Reads the global order (`readAllStatement`). */
export const readAll = (
  sql: PgClient,
  tables: Tables,
  read: GlobalRead
): Effect.Effect<ReadonlyArray<PositionedFact>, SqlError | InvalidPosition> =>
  Effect.gen(function* () {
    if (read.limit <= 0 || read.filter?.types?.length === 0) return []
    const from = read.from === undefined ? undefined : yield* decodePosition(read.from)
    const rows = yield* readAllStatement(sql, tables, read, from)
    return rows.map(toPositionedFact)
  })
