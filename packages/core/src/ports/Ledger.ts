import { Context, Data, type Effect, type Option, type Stream } from "effect"
import type { Fact, NewFact } from "../domain/Fact.js"
import type { StoreUnavailable } from "./StoreUnavailable.js"

/**
 * The version a stream must be at for an append to go through: its last position (0 for a stream that does not
 * exist yet), or `"any"`.
 */
export type ExpectedVersion = number | "any"

/** Facts to append to one stream. */
export interface StreamAppend {
  readonly stream: string
  readonly expected: ExpectedVersion
  readonly facts: ReadonlyArray<NewFact>
}

/** What an append recorded: each stream's new version and the facts as the ledger placed them. */
export interface AppendResult {
  readonly versions: ReadonlyMap<string, number>
  readonly facts: ReadonlyArray<Fact>
}

/** An append refused because a stream was not at the expected version (or a fact id was taken). */
export class VersionConflict extends Data.TaggedError("VersionConflict")<{
  readonly stream: string
  readonly expected: ExpectedVersion
  readonly actual: number
}> {}

/**
 * A place in the ledger's global order, opaque outside the store that made it (a global position in memory,
 * a transaction id and a global position on PostgreSQL). Positions of one store compare as the store reads.
 */
export type LedgerPosition = string

/** Which facts a read of the global order returns. */
export interface GlobalFilter {
  /** Only facts of streams that begin with this text. */
  readonly streamPrefix?: string
  /** Only facts of these types. */
  readonly types?: ReadonlyArray<string>
  /** Only facts of this chain (their `correlation_id`). */
  readonly correlationId?: string
}

/** A position this store did not make, handed back to `readAll` (a cursor tampered with, or of another store). */
export class InvalidPosition extends Data.TaggedError("InvalidPosition")<{
  readonly position: string
}> {}

/** A read of the global order: after (forward) or before (backward) a position, at most `limit` facts. */
export interface GlobalRead {
  readonly direction: "forward" | "backward"
  /** Exclusive bound: forward reads facts after it, backward reads facts before it; absent = from the start/end. */
  readonly from?: LedgerPosition
  readonly limit: number
  readonly filter?: GlobalFilter
}

/** A fact with its place in the global order. */
export interface PositionedFact {
  readonly fact: Fact
  readonly position: LedgerPosition
}

/** A wake-up: something was appended to these streams. */
export interface LedgerWakeup {
  readonly streams: ReadonlyArray<string>
}

/**
 * The ledger: streams of facts appended with optimistic concurrency, each append one transaction with the
 * inline projections, read back by stream, by id or in global order. A reader of the global order never skips
 * a fact that committed late: it only sees facts below a horizon every earlier append has passed.
 */
export class Ledger extends Context.Tag("@runledger/core/Ledger")<
  Ledger,
  {
    /** Appends facts to one or more streams in one transaction, each at its expected version. */
    readonly append: (
      appends: ReadonlyArray<StreamAppend>
    ) => Effect.Effect<AppendResult, VersionConflict | StoreUnavailable>
    /** Reads a stream from a position (inclusive, from 1), at most `limit` facts. */
    readonly readStream: (
      stream: string,
      options?: { readonly from?: number; readonly limit?: number }
    ) => Effect.Effect<ReadonlyArray<Fact>, StoreUnavailable>
    /** The last position of a stream, 0 when it holds nothing. */
    readonly streamVersion: (stream: string) => Effect.Effect<number, StoreUnavailable>
    /** Reads facts in global order. */
    readonly readAll: (
      read: GlobalRead
    ) => Effect.Effect<ReadonlyArray<PositionedFact>, StoreUnavailable | InvalidPosition>
    /** Reads one fact by its id. */
    readonly readFact: (id: string) => Effect.Effect<Option.Option<PositionedFact>, StoreUnavailable>
    /** Wake-ups after appends, from this process and (where the store shares a database) from others. */
    readonly wakeups: Stream.Stream<LedgerWakeup>
  }
>() {}
