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

/**
 * The owner of a stream, and of every stream that begins with a prefix: its first three segments for a playbook's
 * streams (`playbook/<org>/<playbook>/`), its first two for any other (`org/<org>/`, …); undefined for a text with
 * fewer. The stores index the global order by owner, so a read filtered by a prefix that has an owner touches only
 * that owner's facts, however many the ledger holds (ADR 0012).
 */
export const streamOwner = (stream: string): string | undefined => {
  const segments = stream.startsWith("playbook/") ? 3 : 2
  let end = -1
  for (let segment = 0; segment < segments; segment++) {
    end = stream.indexOf("/", end + 1)
    if (end < 0) return undefined
  }
  return stream.slice(0, end + 1)
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
  /** The types of the facts appended; absent when the store could not say (an older instance's notification). */
  readonly types?: ReadonlyArray<string>
  /**
   * The appender's tag (`AppendOptions.origin`), on wake-ups of this process's appends and of other instances'
   * alike: a subscriber may leave alone what the appender itself carries on with (ADR 0279).
   */
  readonly origin?: string
}

/** How an append is made: `origin` tags its wake-up, in this process and in every other one. */
export interface AppendOptions {
  readonly origin?: string
}

/** The wake-up of an append made in this process. */
export const wakeupOf = (appends: ReadonlyArray<StreamAppend>, options?: AppendOptions): LedgerWakeup => ({
  streams: appends.map((entry) => entry.stream),
  types: [...new Set(appends.flatMap((entry) => entry.facts.map((fact) => fact.type)))],
  ...(options?.origin === undefined ? {} : { origin: options.origin })
})

/** Whether a wake-up may concern facts of these types (one that does not say its types may). */
export const wakesFor = (wakeup: LedgerWakeup, types: ReadonlySet<string>): boolean =>
  wakeup.types === undefined || wakeup.types.some((type) => types.has(type))

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
      appends: ReadonlyArray<StreamAppend>,
      options?: AppendOptions
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
