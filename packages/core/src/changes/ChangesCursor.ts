import { Either, Schema } from "effect"
import { invalidInput, type Rejection } from "../domain/Rejection.js"
import { decodeCursor, encodeCursor } from "../paging/cursor.js"

/**
 * Where a changes cursor stands: the ledger position of the last fact read in the feed's global order and that
 * fact's id (both null before the feed's first fact), and, for a feed that reads a stream beside it, that stream's
 * version.
 */
export const ChangesCursor = Schema.Struct({
  position: Schema.NullOr(Schema.String),
  fact: Schema.NullOr(Schema.String),
  version: Schema.optional(Schema.Int.pipe(Schema.nonNegative()))
})
export type ChangesCursor = typeof ChangesCursor.Type

/** `invalid_input` of the type cursor_not_held at `/since`: a cursor this ledger and this route did not give. */
export const cursorNotHeld = (): Rejection =>
  invalidInput(
    [
      {
        pointer: "/since",
        detail:
          "since: is not a cursor this ledger holds for this route, such as one of another database or another playbook; ask again without since."
      }
    ],
    "cursor_not_held"
  )

/** The opaque text of a cursor, bound to its feed's scope. */
export const encodeChangesCursor = (scope: string, cursor: ChangesCursor): string => encodeCursor(scope, cursor)

/** Reads a cursor of a feed's scope back; another scope's, or one that does not decode, is not held. */
export const decodeChangesCursor = (scope: string, text: string): Either.Either<ChangesCursor, Rejection> =>
  decodeCursor<unknown>(scope, text).pipe(
    Either.flatMap((payload) => Schema.decodeUnknownEither(ChangesCursor)(payload)),
    Either.mapLeft(cursorNotHeld)
  )
