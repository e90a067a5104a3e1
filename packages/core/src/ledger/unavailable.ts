import { Effect } from "effect"
import { type Rejection, reject } from "../domain/Rejection.js"
import type { StoreUnavailable } from "../ports/StoreUnavailable.js"

/** Turns a store that cannot serve into the caller's `unavailable`, which a retry may resolve. */
export const storeToRejection = <A, E, R>(
  effect: Effect.Effect<A, E | StoreUnavailable, R>
): Effect.Effect<A, Exclude<E, StoreUnavailable> | Rejection, R> =>
  Effect.catchIf(
    effect,
    (error): error is StoreUnavailable =>
      typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "StoreUnavailable",
    () =>
      Effect.fail(
        reject("unavailable", "The runtime's store cannot serve right now; try again shortly.", { retryAfter: 1 })
      )
  ) as Effect.Effect<A, Exclude<E, StoreUnavailable> | Rejection, R>
