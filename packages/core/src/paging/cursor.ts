import { Either } from "effect"
import { invalidAt, type Rejection } from "../domain/Rejection.js"

/**
 * Opaque cursors: base64url of the scope they belong to and a position within it. A cursor of another scope
 * (another playbook, run or listing) is refused as `invalid_input` at `/cursor`.
 */
export const encodeCursor = (scope: string, position: unknown): string =>
  Buffer.from(JSON.stringify({ s: scope, p: position }), "utf8").toString("base64url")

/** The words of a refused cursor. */
export const cursorRefused = "cursor: is not a cursor this listing gave; ask again without it."

/** Reads a cursor back, refusing one this scope did not give. */
export const decodeCursor = <P>(scope: string, cursor: string): Either.Either<P, Rejection> => {
  const refused = invalidAt("/cursor", cursorRefused)
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { s?: unknown; p?: unknown }
    if (typeof parsed !== "object" || parsed === null || parsed.s !== scope || parsed.p === undefined)
      return Either.left(refused)
    return Either.right(parsed.p as P)
  } catch {
    return Either.left(refused)
  }
}
