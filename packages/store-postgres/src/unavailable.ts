import { SqlError } from "@effect/sql/SqlError"
import { StoreUnavailable } from "@runledger/core"
import { Effect } from "effect"

/** Turns the driver's failures into the port's `StoreUnavailable`, saying what the store was doing. */
export const unavailable =
  (doing: string) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, Extract<E, SqlError>> | StoreUnavailable, R> =>
    Effect.catchIf(
      effect,
      (error): error is Extract<E, SqlError> => error instanceof SqlError,
      (error) =>
        Effect.fail(
          new StoreUnavailable({
            detail: `PostgreSQL failed while ${doing}: ${error.cause instanceof Error ? error.cause.message : error.message}`,
            cause: error
          })
        )
    )
