import type { Fragment } from "@effect/sql/Statement"
import type { PgClient } from "@effect/sql-pg/PgClient"
import type { Fact, NewFactMetadata, PositionedFact } from "@runledger/core"
import { encodePosition } from "./position.js"

/** A row of `runledger_facts` as the store selects it. */
export interface FactRow {
  readonly id: string
  readonly type: string
  readonly stream: string
  readonly position: number
  /** The global position as text (a bigint), named apart from the column so `ORDER BY` sorts the column. */
  readonly global_position_text: string
  /** The appending transaction's id as text (an xid8), named apart from the column likewise. */
  readonly tx_text: string
  readonly data: unknown
  readonly metadata: NewFactMetadata
}

/** The columns every read of facts selects, in the shape of `FactRow`. */
export const factColumns = (sql: PgClient): Fragment =>
  sql`id, type, stream, position, global_position::text AS global_position_text, tx::text AS tx_text, data, metadata`

/** The fact a row holds: the stored metadata completed with where the ledger placed it. */
export const toFact = (row: FactRow): Fact => ({
  id: row.id,
  type: row.type,
  data: row.data,
  metadata: {
    ...row.metadata,
    stream: row.stream,
    position: row.position,
    global_position: Number(row.global_position_text)
  }
})

/** The fact a row holds with its place in the global order. */
export const toPositionedFact = (row: FactRow): PositionedFact => ({
  fact: toFact(row),
  position: encodePosition({ tx: row.tx_text, globalPosition: row.global_position_text })
})
