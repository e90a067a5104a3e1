import { Clock, Duration, Effect, Layer } from "effect"
import { storeToRejection } from "../ledger/unavailable.js"
import { whileHeld } from "../ports/Lease.js"
import { Ledger } from "../ports/Ledger.js"
import { Views } from "../ports/Views.js"
import type { DeliveryServices } from "./deliverDue.js"
import type { RepliesRead } from "./interactionFacts.js"
import { ReplySettings, type ReplySettingsShape } from "./ReplySettings.js"
import { type ReadOutcome, readConversation } from "./readConversation.js"
import { type ReplyRequest, replyRequestsPartition, replyRequestsView } from "./replyRequestsProjection.js"

/** What the host remembers of one conversation between reads: only the cadence, which a restart starts again. */
interface Cadence {
  /** When the conversation last moved: a delivery into it, or a reply found. */
  activityAt: number
  /** Reads since then. */
  reads: number
  /** When it is next read. */
  nextAt: number
  /** The floor between reads, once a read told it. */
  waitMillis: number
  /** The cursor (`since`), once read from the conversation's stream. */
  cursor?: string | undefined
  loaded: boolean
}

/** The page size the host reads open requests in. */
const page = 256

/** The default floor between reads (`replies.wait`), until a read reads the request's own. */
const defaultWait = 5_000

/** When a conversation is read next: its last activity or read plus the cadence's delay, never sooner than `wait`. */
const nextRead = (cadence: Cadence, from: number, settings: ReplySettingsShape): number => {
  const delays = settings.delaysMillis
  const delay = delays[Math.min(cadence.reads, delays.length - 1)] ?? delays[delays.length - 1] ?? defaultWait
  return from + Math.max(delay, cadence.waitMillis)
}

/** The cursor the last `replies_read` of a conversation left, read from its stream. */
const lastCursor = (stream: string) =>
  Effect.flatMap(Ledger, (ledger) =>
    Effect.map(storeToRejection(ledger.readStream(stream)), (facts) => {
      const last = facts.findLast((fact) => fact.type === "replies_read")
      return last === undefined ? undefined : (last.data as RepliesRead).cursor
    })
  )

/**
 * The host that reads replies back (function-formats.md §3.5, ADR 0195), on the instance holding the sweeps lease:
 * every tick it reads the open requests whose replies are read (the `reply_requests` view, by conversation, oldest
 * first), and reads each conversation whose turn came: 5, 10, 20 and 40 s after its last activity, then every
 * 60 s up to the 18th read, then every 300 s, never sooner than its `wait`, a server's `Retry-After` pushing the
 * next read (up to an hour); at most `perTick` conversations a tick, `concurrency` at once. The cadence is the only
 * thing it holds in memory: a restarted host reads every open conversation once at its first tick, then keeps time
 * again; the requests, the cursor and every reply taken or refused are facts.
 */
export const runRepliesHost: Effect.Effect<never, never, DeliveryServices | Views> = Effect.gen(function* () {
  const views = yield* Views
  const settings = yield* ReplySettings
  const cadences = new Map<string, Cadence>()

  /** The open requests, grouped by conversation stream, oldest first within each. */
  const openConversations = Effect.gen(function* () {
    const grouped = new Map<string, Array<ReplyRequest>>()
    let after: { sort: string; id: string } | undefined
    for (;;) {
      const docs = yield* views.list(replyRequestsView, replyRequestsPartition, {
        direction: "ascending",
        limit: page,
        ...(after === undefined ? {} : { after })
      })
      for (const doc of docs) {
        const request = doc.data as ReplyRequest
        const rows = grouped.get(request.conversation_stream) ?? []
        rows.push(request)
        grouped.set(request.conversation_stream, rows)
      }
      if (docs.length < page) return grouped
      after = { sort: docs[docs.length - 1]!.sort, id: docs[docs.length - 1]!.id }
    }
  })

  const readOne = (stream: string, rows: ReadonlyArray<ReplyRequest>, cadence: Cadence) =>
    Effect.gen(function* () {
      if (!cadence.loaded) {
        cadence.cursor = yield* lastCursor(stream)
        cadence.loaded = true
      }
      const outcome: ReadOutcome = yield* readConversation(rows[0]!.conversation, stream, rows, cadence.cursor)
      const now = yield* Clock.currentTimeMillis
      if (outcome._tag === "Closed") {
        cadence.nextAt = now + settings.delaysMillis[settings.delaysMillis.length - 1]!
        return
      }
      cadence.waitMillis = outcome.waitMillis
      if (outcome._tag === "Found") {
        cadence.cursor = outcome.cursor
        cadence.activityAt = now
        cadence.reads = 0
      } else cadence.reads++
      cadence.nextAt =
        outcome._tag === "Failed" && outcome.retryAfterMs !== undefined
          ? now + Math.min(Math.max(outcome.retryAfterMs, cadence.waitMillis), settings.longestRetryAfterMillis)
          : nextRead(cadence, now, settings)
    }).pipe(
      Effect.catchAllCause((cause) =>
        Effect.logWarning(
          `RunLedger replies host: could not read the conversation of ${stream}; it is read again`,
          cause
        )
      )
    )

  const tick = Effect.gen(function* () {
    const grouped = yield* openConversations
    const now = yield* Clock.currentTimeMillis
    for (const stream of cadences.keys()) if (!grouped.has(stream)) cadences.delete(stream)
    const due: Array<[string, ReadonlyArray<ReplyRequest>, Cadence]> = []
    for (const [stream, rows] of grouped) {
      const deliveredAt = Math.max(...rows.map((row) => Date.parse(row.delivered_at)))
      let cadence = cadences.get(stream)
      if (cadence === undefined || deliveredAt > cadence.activityAt) {
        const fresh: Cadence = cadence ?? { activityAt: 0, reads: 0, nextAt: 0, waitMillis: defaultWait, loaded: false }
        fresh.activityAt = deliveredAt
        fresh.reads = 0
        fresh.nextAt = nextRead(fresh, deliveredAt, settings)
        cadence = fresh
        cadences.set(stream, cadence)
      }
      if (cadence.nextAt <= now) due.push([stream, rows, cadence])
    }
    yield* Effect.forEach(
      due.sort((a, b) => a[2].nextAt - b[2].nextAt).slice(0, settings.perTick),
      ([stream, rows, cadence]) => readOne(stream, rows, cadence),
      { concurrency: settings.concurrency, discard: true }
    )
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logWarning("RunLedger replies host: the open conversations could not be read", cause)
    )
  )

  return yield* whileHeld(
    Effect.forever(Effect.zipRight(tick, Effect.sleep(Duration.millis(settings.tickMillis))))
  ).pipe(Effect.zipRight(Effect.never))
})

/** The replies host as a layer: a fiber that lives as long as the runtime's scope. */
export const repliesHostLayer: Layer.Layer<never, never, DeliveryServices | Views> = Layer.scopedDiscard(
  Effect.forkScoped(runRepliesHost)
)
