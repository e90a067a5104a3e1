import type { PgClient } from "@effect/sql-pg/PgClient"
import { type LedgerWakeup, StoreUnavailable } from "@runledger/core"
import { Data, Deferred, Effect, Option, PubSub, Ref, Schedule, Schema, type Scope, Stream } from "effect"

/**
 * The ledger's wake-ups on PostgreSQL. An append NOTIFYs the store's channel inside its transaction (delivered at
 * commit; the append's function calls `pg_notify` with the channel and payloads given here) and wakes this
 * instance's subscribers directly after the commit; one LISTEN connection per instance carries other instances'
 * appends to every subscriber through a PubSub.
 */
export interface Wakeups {
  readonly subscribe: Stream.Stream<LedgerWakeup>
  /** The store's NOTIFY channel. */
  readonly channel: string
  /** The NOTIFY payloads of an append's wake-up (streams and fact types), each under PostgreSQL's size limit. */
  readonly payloads: (wakeup: LedgerWakeup) => ReadonlyArray<string>
  /** Wakes this instance's subscribers, after a commit. */
  readonly publish: (wakeup: LedgerWakeup) => Effect.Effect<void>
}

/**
 * What a notification carries: the instance that sent it, the streams appended to (none for a heartbeat), the
 * types of the facts appended and the appender's tag, `AppendOptions.origin` (each absent from an instance of an
 * earlier version; the tag also when the append had none).
 */
const Message = Schema.parseJson(
  Schema.Struct({
    origin: Schema.String,
    streams: Schema.Array(Schema.String),
    types: Schema.optional(Schema.Array(Schema.String)),
    appended_by: Schema.optional(Schema.String)
  })
)

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const payloadLimit = 7900

/** The LISTEN connection stopped delivering this instance's own heartbeats. */
class ListenLost extends Data.TaggedError("ListenLost") {}

/**
 * Splits an append's wake-up into NOTIFY payloads under PostgreSQL's size limit, each with the append's types and
 * its appender's tag.
 */
const payloads = (origin: string, wakeup: LedgerWakeup): ReadonlyArray<string> => {
  const types = wakeup.types ?? []
  const by = wakeup.origin === undefined ? {} : { appended_by: wakeup.origin }
  const message = (streams: ReadonlyArray<string>) => JSON.stringify({ origin, streams, types, ...by })
  const result: Array<string> = []
  let batch: Array<string> = []
  for (const stream of new Set(wakeup.streams)) {
    if (batch.length > 0 && Buffer.byteLength(message([...batch, stream])) > payloadLimit) {
      result.push(message(batch))
      batch = [stream]
    } else batch.push(stream)
  }
  if (batch.length > 0) result.push(message(batch))
  return result
}

/**
 * Starts listening on the schema's channel for the life of the scope. A heartbeat (a NOTIFY this instance sends
 * itself) proves the LISTEN connection delivers; when it stops, the connection is replaced with backoff. The
 * effect returns once the first heartbeat came back, so no append after it goes unheard.
 */
export const makeWakeups = (sql: PgClient, schema: string): Effect.Effect<Wakeups, StoreUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const channel = `runledger_${schema}`
    const origin = crypto.randomUUID()
    const pubsub = yield* Effect.acquireRelease(PubSub.unbounded<LedgerWakeup>(), PubSub.shutdown)
    const ready = yield* Deferred.make<void>()
    const pong = yield* Ref.make(yield* Deferred.make<void>())

    const received = (payload: string) =>
      Option.match(Schema.decodeUnknownOption(Message)(payload), {
        onNone: () => Effect.void,
        onSome: (message) =>
          message.origin === origin
            ? Effect.flatMap(Ref.get(pong), (deferred) => Deferred.succeed(deferred, undefined))
            : message.streams.length === 0
              ? Effect.void
              : PubSub.publish(pubsub, {
                  streams: message.streams,
                  ...(message.types === undefined ? {} : { types: message.types }),
                  ...(message.appended_by === undefined ? {} : { origin: message.appended_by })
                })
      })

    const heartbeat = Effect.gen(function* () {
      const deferred = yield* Deferred.make<void>()
      yield* Ref.set(pong, deferred)
      yield* sql`SELECT pg_notify(${channel}, ${JSON.stringify({ origin, streams: [] })})`
      yield* Deferred.await(deferred).pipe(
        Effect.timeoutFail({ duration: "250 millis", onTimeout: () => new ListenLost() })
      )
    }).pipe(
      Effect.retry({ times: 20 }),
      Effect.zipRight(Deferred.succeed(ready, undefined)),
      Effect.repeat(Schedule.spaced("10 seconds"))
    )

    yield* Effect.raceFirst(Stream.runForEach(sql.listen(channel), received), heartbeat).pipe(
      Effect.tapErrorCause((cause) => Effect.logWarning("RunLedger: LISTEN connection lost; reconnecting", cause)),
      Effect.retry(Schedule.exponential("100 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")))),
      Effect.forkScoped
    )
    yield* Deferred.await(ready).pipe(
      Effect.timeoutFail({
        duration: "15 seconds",
        onTimeout: () => new StoreUnavailable({ detail: `PostgreSQL did not deliver notifications on ${channel}` })
      })
    )

    return {
      subscribe: Stream.fromPubSub(pubsub),
      channel,
      payloads: (wakeup) => payloads(origin, wakeup),
      publish: (wakeup) => Effect.asVoid(PubSub.publish(pubsub, wakeup))
    }
  })
