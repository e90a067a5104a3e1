import { Clock, Effect } from "effect"
import { placeFacts } from "../../ledger/decide.js"
import { Ledger } from "../../ports/Ledger.js"
import { derivedFactId } from "./triggerFacts.js"

/** `reaction_refused`: what a workflow's triggers did not start in one minute (workflow-format.md §12.4). */
export const reactionRefused = "reaction_refused"

/** The stream of a workflow's `reaction_refused` events, among the playbook's events. */
export const reactionsStream = (org: string, playbook: string, name: string): string =>
  `playbook/${org}/${playbook}/events/reaction_refused/${name}`

/** One thing a trigger did not start: the workflow and version, the trigger, and why. */
export interface Refusal {
  readonly org: string
  readonly playbook: string
  readonly name: string
  readonly version: number
  readonly trigger: { readonly kind: string; readonly reference: string }
  readonly reason: string
  readonly count: number
  readonly kind?: string
  readonly because?: string
}

/** The data of `reaction_refused`: how many in the minute, the last reason, trigger, and rejection kind/because. */
export interface ReactionRefused {
  readonly minute: string
  readonly count: number
  readonly reason: string
  readonly trigger: { readonly kind: string; readonly reference: string }
  readonly kind?: string
  readonly because?: string
}

interface Tally {
  minute: string
  count: number
  last: Refusal
}

/**
 * Counts refusals per workflow and minute in this instance and records each minute's as one `reaction_refused` on
 * the playbook's events once the minute is over (ADR 0284), its id derived from the workflow and minute so a
 * second instance's count of the same minute is not recorded again.
 */
export const makeReactionRefusals = () => {
  const tallies = new Map<string, Tally>()

  const record = (tally: Tally) =>
    Effect.gen(function* () {
      const { last } = tally
      const data: ReactionRefused = {
        minute: tally.minute,
        count: tally.count,
        reason: last.reason,
        trigger: last.trigger,
        ...(last.kind === undefined ? {} : { kind: last.kind }),
        ...(last.because === undefined ? {} : { because: last.because })
      }
      const [placed] = yield* placeFacts(
        [
          {
            type: reactionRefused,
            data,
            metadata: { definition: { type: "workflow", name: last.name, version: last.version } }
          }
        ],
        `playbook:${last.playbook}`
      )
      const fact = {
        ...placed!,
        id: derivedFactId([last.org, last.playbook, last.name, tally.minute, reactionRefused])
      }
      const ledger = yield* Ledger
      yield* ledger.append([
        { stream: reactionsStream(last.org, last.playbook, last.name), expected: "any", facts: [fact] }
      ])
    }).pipe(Effect.catchAll(() => Effect.void))

  /** Counts a refusal in the current minute; records the workflow's earlier minute first if it had one. */
  const count = (refusal: Refusal) =>
    Effect.gen(function* () {
      const minute = new Date(yield* Clock.currentTimeMillis).toISOString().slice(0, 16)
      const key = `${refusal.org}/${refusal.playbook}/${refusal.name}`
      const tally = tallies.get(key)
      if (tally !== undefined && tally.minute === minute) {
        tally.count += refusal.count
        tally.last = refusal
        return
      }
      if (tally !== undefined) yield* record(tally)
      tallies.set(key, { minute, count: refusal.count, last: refusal })
    })

  /** Records every minute that is over. */
  const flush = Effect.gen(function* () {
    const minute = new Date(yield* Clock.currentTimeMillis).toISOString().slice(0, 16)
    for (const [key, tally] of [...tallies]) {
      if (tally.minute >= minute) continue
      tallies.delete(key)
      yield* record(tally)
    }
  })

  /** When the earliest counted minute is over, if any. */
  const nextFlushAt = (): number | undefined => {
    let earliest: number | undefined
    for (const tally of tallies.values()) {
      const at = Date.parse(`${tally.minute}:00.000Z`) + 60_000
      if (earliest === undefined || at < earliest) earliest = at
    }
    return earliest
  }

  return { count, flush, nextFlushAt }
}

/** The refusals of one host. */
export type ReactionRefusals = ReturnType<typeof makeReactionRefusals>
