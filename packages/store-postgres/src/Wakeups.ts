import type { PgClient } from "@effect/sql-pg/PgClient"
import { type LedgerWakeup, StoreUnavailable, wakeupFeed } from "@runledger/core"
import { Chunk, Data, Deferred, Effect, Option, Queue, Ref, Schedule, Schema, type Scope, Stream } from "effect"
import { literal } from "./sqlLiterals.js"

/**
 * The ledger's wake-ups on PostgreSQL. After an append commits, it wakes this instance's subscribers at once and
 * hands its NOTIFY payloads to the notifier, which sends what the appends of the moment committed in one statement
 * of its own (ADR 0404); one LISTEN connection per instance carries other instances' appends to every subscriber
 * through the core's push feed (`wakeupFeed`, ADR 0411).
 */
export interface Wakeups {
  readonly subscribe: Stream.Stream<LedgerWakeup>
  /** The store's NOTIFY channel. */
  readonly channel: string
  /** Wakes this instance's subscribers and notifies the other instances, after a commit. */
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

/** The most payloads one notifier statement sends. */
const notifyBatch = 500

/** The heartbeat's interval: how often each instance notifies itself, and so every other instance. */
const heartbeatMillis = 10_000

/** How long after another instance was last heard this instance still notifies: three heartbeats. */
const peerSilenceMillis = 3 * heartbeatMillis

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
    const feed = yield* wakeupFeed
    const ready = yield* Deferred.make<void>()
    const pong = yield* Ref.make(yield* Deferred.make<void>())

    const announce = sql`SELECT pg_notify(${channel}, ${JSON.stringify({ origin, streams: [] })})`

    /** When each other instance was last heard (a heartbeat or an append). */
    const peers = new Map<string, number>()
    const startedAt = Date.now()

    /**
     * Whether another instance may be listening: one was heard within three heartbeats, or this one started within
     * them (so it notifies whoever it has not heard yet).
     */
    const hasCompany = (): boolean => {
      const now = Date.now()
      if (now - startedAt < peerSilenceMillis) return true
      for (const at of peers.values()) if (now - at < peerSilenceMillis) return true
      return false
    }

    /** Notes another instance heard; one heard for the first time (or again after silence) is answered at once. */
    const heard = (peer: string) => {
      const now = Date.now()
      const last = peers.get(peer)
      peers.set(peer, now)
      return last === undefined || now - last >= peerSilenceMillis ? Effect.fork(Effect.ignore(announce)) : Effect.void
    }

    const forgetSilentPeers = Effect.sync(() => {
      for (const [peer, at] of peers) if (Date.now() - at >= peerSilenceMillis) peers.delete(peer)
    })

    const received = (payload: string) =>
      Option.match(Schema.decodeUnknownOption(Message)(payload), {
        onNone: () => Effect.void,
        onSome: (message) => {
          if (message.origin !== origin) return Effect.zipRight(heard(message.origin), delivered(message))
          return Effect.flatMap(Ref.get(pong), (deferred) => Deferred.succeed(deferred, undefined))
        }
      })

    const delivered = (message: typeof Message.Type) =>
      Effect.sync(() => {
        if (message.streams.length > 0)
          feed.publish(() => ({
            streams: message.streams,
            ...(message.types === undefined ? {} : { types: message.types }),
            ...(message.appended_by === undefined ? {} : { origin: message.appended_by })
          }))
      })

    const heartbeat = Effect.gen(function* () {
      const deferred = yield* Deferred.make<void>()
      yield* Ref.set(pong, deferred)
      yield* forgetSilentPeers
      yield* announce
      yield* Deferred.await(deferred).pipe(
        Effect.timeoutFail({ duration: "250 millis", onTimeout: () => new ListenLost() })
      )
    }).pipe(
      Effect.retry({ times: 20 }),
      Effect.zipRight(Deferred.succeed(ready, undefined)),
      Effect.repeat(Schedule.spaced(heartbeatMillis))
    )

    /**
     * The notifier (ADR 0404): sends the payloads of every append committed since its last statement in one, off
     * the appends' transactions, so appends commit together (a NOTIFY in a transaction holds a lock through its
     * commit). A statement PostgreSQL refuses is tried again, then its payloads are given up: the other instances
     * miss a wake-up, which their sweeps and held reads' last look make up for. What is queued when the scope
     * closes is sent first. While no other instance has been heard for three heartbeats, nothing is queued: an
     * instance alone on its schema sends no notification but its heartbeat. An instance that starts is heard by its
     * first heartbeat, and answered at once by every other instance's; it notifies from its start.
     */
    const outbox = yield* Queue.unbounded<string>()
    const send = (batch: ReadonlyArray<string>) =>
      sql
        .unsafe(`SELECT pg_notify(${literal.text(channel)}, payload) FROM unnest(${literal.texts(batch)}) AS payload`)
        .pipe(
          Effect.retry(Schedule.exponential("50 millis").pipe(Schedule.intersect(Schedule.recurs(3)))),
          Effect.catchAllCause((cause) =>
            Effect.logWarning("RunLedger: other instances were not notified of some appends", cause)
          )
        )
    const sendQueued = (first: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const queued = [...first, ...Chunk.toReadonlyArray(yield* Queue.takeAll(outbox))]
        for (let start = 0; start < queued.length; start += notifyBatch)
          yield* send(queued.slice(start, start + notifyBatch))
      })
    yield* Queue.take(outbox).pipe(
      Effect.flatMap((first) => sendQueued([first])),
      Effect.forever,
      Effect.forkScoped
    )
    yield* Effect.addFinalizer(() => sendQueued([]))

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
      subscribe: feed.wakeups,
      channel,
      publish: (wakeup) =>
        Effect.suspend(() => {
          feed.publish(() => wakeup)
          return hasCompany() ? Effect.asVoid(Queue.offerAll(outbox, payloads(origin, wakeup))) : Effect.void
        })
    }
  })
