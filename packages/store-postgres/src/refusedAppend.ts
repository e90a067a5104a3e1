import { SqlError } from "@effect/sql/SqlError"
import { type StreamAppend, VersionConflict } from "@runledger/core"
import { Effect, Option, Schema } from "effect"
import { refusedState } from "./appendFunctions.js"

/** What the append functions say of a refusal: which append (its index) and the version its stream is at. */
const Refusal = Schema.parseJson(Schema.Struct({ append: Schema.Number, actual: Schema.NullOr(Schema.Number) }))

/** Whether a failure is PostgreSQL's refusal with this SQLSTATE. */
export const refusedWith =
  (state: string) =>
  (error: unknown): error is SqlError =>
    error instanceof SqlError && (error.cause as { code?: unknown } | undefined)?.code === state

const isRefusal = refusedWith(refusedState)

/** Turns the append functions' refusal (SQLSTATE `RL409`) into the port's `VersionConflict` for that append. */
export const refusedAppend =
  (appends: ReadonlyArray<StreamAppend>) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | VersionConflict, R> =>
    Effect.catchIf(
      effect,
      (error): error is Extract<E, SqlError> => isRefusal(error),
      (error) => {
        const refusal = Option.getOrElse(
          Schema.decodeUnknownOption(Refusal)((error.cause as { detail?: unknown }).detail),
          () => ({ append: 0, actual: null })
        )
        const append = appends[refusal.append] ?? appends[0]
        return Effect.fail(
          new VersionConflict({ stream: append.stream, expected: append.expected, actual: refusal.actual ?? 0 })
        )
      }
    )
