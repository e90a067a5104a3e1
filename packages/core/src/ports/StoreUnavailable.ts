import { Data } from "effect"

/** A store that cannot serve now (its database is down, a connection broke): the caller may try again. */
export class StoreUnavailable extends Data.TaggedError("StoreUnavailable")<{
  readonly detail: string
  readonly cause?: unknown
}> {}
