import { Effect, Layer, Queue } from "effect"
import { eachWakeup } from "../../host/eachWakeup.js"
import type { HostWakeups } from "../../host/HostWakeups.js"
import type { LedgerWakeup } from "../../ports/Ledger.js"
import type { DriveServices } from "../run/driveRun.js"
import { workflowInputApplied } from "../run/workflowFacts.js"
import { type ListenCursor, offerPlaybookFacts } from "./offerPlaybookFacts.js"

/**
 * How long a playbook's look waits at most behind a wake-up: a playbook where nothing listened is looked at again
 * at most this often (a listen opened meanwhile hears every fact recorded after it, ADR 0295), and a pass is
 * followed by one more this long after, for the facts a PostgreSQL reader sees only once past its horizon.
 */
const lookMillis = 1_000

/** How often the host looks again at every playbook where runs listened at its last look. */
const sweepMillis = 30_000

/**
 * Waits `millis` of real time: the host's looks are paced by the machine's clock, never by the runtime's `Clock`
 * (which a test may hold still), since they bound work rather than time in any run.
 */
const pause = (millis: number) =>
  Effect.async<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), millis)
    return Effect.sync(() => clearTimeout(timer))
  })

/** The playbook (`<org>/<playbook>`) of one of its own streams. */
const playbookOf = (stream: string): string | undefined => {
  const parts = stream.split("/")
  return parts[0] === "playbook" && parts.length >= 4 ? `${parts[1]}/${parts[2]}` : undefined
}

/** A look the host owes a playbook; `again` for the one that follows a pass (which asks for no other). */
interface Look {
  readonly id: string
  readonly again: boolean
}

/** What the host knows of a playbook since its last look. */
interface Known {
  readonly listening: boolean
  readonly lookedAt: number
  readonly cursor: ListenCursor | undefined
}

/**
 * The listen host (workflow-format.md §8.1 source 2, §8.3; ADR 0295), a fiber beside the workflow host: woken by
 * the ledger for a playbook's new facts, it offers them to the playbook's open listens from its cursor. It keeps in
 * memory, per playbook, how far it offered the facts and whether runs listened at its last look, so a playbook where
 * nothing listens costs no read until a workflow input (which may open a listen) is recorded there, and then one a
 * second. A restarted instance starts each playbook from the record that opened its earliest open listen.
 */
export const runListenHost: Effect.Effect<never, never, DriveServices | HostWakeups> = Effect.gen(function* () {
  const looks = yield* Queue.unbounded<Look>()
  const known = new Map<string, Known>()
  const waiting = new Set<string>()

  /** Looks at a playbook `lookMillis` from now, once however often it is asked meanwhile. */
  const lookLater = (id: string, again: boolean) =>
    Effect.suspend(() => {
      if (waiting.has(id)) return Effect.void
      waiting.add(id)
      return Effect.asVoid(
        Effect.forkDaemon(
          pause(lookMillis).pipe(
            Effect.zipRight(Effect.sync(() => waiting.delete(id))),
            Effect.zipRight(Queue.offer(looks, { id, again }))
          )
        )
      )
    })

  /**
   * What a wake-up asks of the host: a look at each playbook it names where runs may listen, later when that
   * playbook was looked at within `lookMillis`; nothing for a playbook where nothing listened and no workflow
   * input was recorded (most wake-ups: ADR 0298), nor for one whose later look is already waiting (a workflow's
   * every step, which would otherwise fork a handler that does nothing).
   */
  const answer = (wakeup: LedgerWakeup) => {
    const now = performance.now()
    const asks: Array<Effect.Effect<unknown>> = []
    for (const id of new Set(wakeup.streams.flatMap((stream) => playbookOf(stream) ?? []))) {
      const seen = known.get(id)
      if (seen !== undefined && !seen.listening) {
        if (wakeup.types !== undefined && !wakeup.types.includes(workflowInputApplied)) continue
        if (now - seen.lookedAt < lookMillis) {
          // A look already waiting reads every fact recorded before it: this one's included.
          if (!waiting.has(id)) asks.push(lookLater(id, false))
          continue
        }
      }
      asks.push(Queue.offer(looks, { id, again: false }))
    }
    return asks.length === 0 ? undefined : Effect.all(asks, { discard: true })
  }

  const offering = Effect.gen(function* () {
    const first = yield* Queue.take(looks)
    const rest = yield* Queue.takeAll(looks)
    const batch = new Map<string, boolean>()
    for (const look of [first, ...rest]) batch.set(look.id, (batch.get(look.id) ?? true) && look.again)
    for (const [id, again] of batch) {
      const [org, playbook] = id.split("/")
      const before = known.get(id)?.cursor
      const { listening, cursor } = yield* offerPlaybookFacts(org!, playbook!, before).pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logWarning("RunLedger listen host: facts could not be offered", cause), {
            listening: true,
            cursor: before
          })
        )
      )
      known.set(id, { listening, lookedAt: performance.now(), cursor })
      if (listening && !again) yield* lookLater(id, true)
    }
  })

  const sweep = Effect.gen(function* () {
    yield* pause(sweepMillis)
    for (const [id, seen] of known) if (seen.listening) yield* Queue.offer(looks, { id, again: true })
  })

  const wakeups = eachWakeup(answer, 1)
  return yield* Effect.all([wakeups.pipe(Effect.forever), offering.pipe(Effect.forever), sweep.pipe(Effect.forever)], {
    concurrency: 3
  }).pipe(Effect.zipRight(Effect.never))
})

/** The listen host as a layer: a fiber that lives as long as the runtime's scope. */
export const listenHostLayer: Layer.Layer<never, never, DriveServices | HostWakeups> = Layer.scopedDiscard(
  Effect.forkScoped(runListenHost)
)
