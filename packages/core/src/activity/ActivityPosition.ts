import { Either } from "effect"
import { invalidAt, type Rejection } from "../domain/Rejection.js"
import { decodeCursor, encodeCursor } from "../paging/cursor.js"

/** A place in the activity: a row's time in milliseconds and its address, which orders rows of the same time. */
export interface ActivityPosition {
  readonly at: number
  readonly address: string
}

/** Orders places newest last: by time, then by address. */
export const comparePositions = (a: ActivityPosition, b: ActivityPosition): number =>
  a.at - b.at || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)

/** The place of a row. */
export const positionOf = (row: { readonly at: string; readonly address: string }): ActivityPosition => ({
  at: Date.parse(row.at),
  address: row.address
})

/** The scope of an org's activity cursors: a cursor of another org's activity is not this one's. */
const cursorScope = (org: string) => `activity|${org}`

/** A row's cursor: its place in the org's activity, opaque. */
export const activityCursor = (org: string, position: ActivityPosition): string =>
  encodeCursor(cursorScope(org), position)

/**
 * Reads a cursor of the org's activity back (`since`, `cursor`, `through`), refusing at the field one that does not
 * decode or that another org's activity gave.
 */
export const readActivityCursor = (
  org: string,
  field: "since" | "cursor" | "through",
  cursor: string
): Either.Either<ActivityPosition, Rejection> =>
  decodeCursor<ActivityPosition>(cursorScope(org), cursor).pipe(
    Either.filterOrLeft(
      (position) =>
        typeof position === "object" &&
        position !== null &&
        Number.isFinite(position.at) &&
        typeof position.address === "string",
      () => undefined
    ),
    Either.mapLeft(() =>
      invalidAt(
        `/${field}`,
        `${field}: is not a cursor of this organization's activity; give the cursor of a row list_activity answered.`
      )
    )
  )
