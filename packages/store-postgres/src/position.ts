import { InvalidPosition, type LedgerPosition } from "@runledger/core"
import { Effect } from "effect"

/** A place in the global order on PostgreSQL: the appending transaction's id, then the fact's global position. */
export interface PgPosition {
  readonly tx: string
  readonly globalPosition: string
}

/** Encodes a place in the global order as the port's opaque position. */
export const encodePosition = (position: PgPosition): LedgerPosition => `${position.tx}:${position.globalPosition}`

/** The largest transaction id (xid8) and global position (bigint) PostgreSQL holds. */
const maxTx = 18_446_744_073_709_551_615n
const maxGlobalPosition = 9_223_372_036_854_775_807n

/** Decodes a position this store made; any other string is an `InvalidPosition`. */
export const decodePosition = (position: LedgerPosition): Effect.Effect<PgPosition, InvalidPosition> => {
  const match = /^(\d{1,20}):(\d{1,19})$/.exec(position)
  if (match === null || BigInt(match[1]) > maxTx || BigInt(match[2]) > maxGlobalPosition)
    return Effect.fail(new InvalidPosition({ position }))
  return Effect.succeed({ tx: match[1], globalPosition: match[2] })
}
