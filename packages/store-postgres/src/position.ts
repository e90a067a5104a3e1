import type { LedgerPosition } from "@runledger/core"
import { Effect } from "effect"

/** A place in the global order on PostgreSQL: the appending transaction's id, then the fact's global position. */
export interface PgPosition {
  readonly tx: string
  readonly globalPosition: string
}

/** Encodes a place in the global order as the port's opaque position. */
export const encodePosition = (position: PgPosition): LedgerPosition => `${position.tx}:${position.globalPosition}`

/** Decodes a position this store made; any other string is a defect of the caller, which must treat it as opaque. */
export const decodePosition = (position: LedgerPosition): Effect.Effect<PgPosition> => {
  const match = /^(\d{1,20}):(\d{1,19})$/.exec(position)
  return match === null
    ? Effect.dieMessage(`Not a position of the Postgres ledger: ${JSON.stringify(position)}`)
    : Effect.succeed({ tx: match[1], globalPosition: match[2] })
}
