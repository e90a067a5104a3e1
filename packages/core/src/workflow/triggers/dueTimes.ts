import { Cron } from "croner"
import type { ScheduleTriggerView } from "./TriggerView.js"

/** The most due times counted in one look; past it, the latest is still found and the count says at least this. */
const countBound = 10_000

/** A cron rule in its zone, or UTC (decision W4). */
const cronOf = (trigger: Extract<ScheduleTriggerView, { kind: "cron" }>): Cron =>
  new Cron(trigger.expression, { timezone: trigger.time_zone ?? "UTC", mode: "5-part", paused: true })

/**
 * The first due time of a schedule trigger strictly after `after` (ms since the epoch), or undefined when there is
 * none. `every`: the next multiple of the period counted from `anchor` (the activation). `cron`: the next time its
 * fields name in its zone; a local time a daylight-saving gap skips that day is not due, and a repeated local time
 * is due once, at its first occurrence (decision W4).
 */
export const nextDueAfter = (trigger: ScheduleTriggerView, anchor: number, after: number): number | undefined => {
  if (trigger.kind === "every") {
    const periods = Math.floor((after - anchor) / trigger.milliseconds) + 1
    return anchor + Math.max(1, periods) * trigger.milliseconds
  }
  const cron = cronOf(trigger)
  let from = new Date(after)
  for (let step = 0; step < countBound; step++) {
    const next = cron.nextRun(from)
    if (next === null) return undefined
    if (cron.match(next)) return next.getTime()
    from = next
  }
  return undefined
}

/** The due times of a trigger in `(after, until]`: the latest, and how many there are. */
export const dueTimesWithin = (
  trigger: ScheduleTriggerView,
  anchor: number,
  after: number,
  until: number
): { readonly latest: number; readonly count: number } | undefined => {
  if (trigger.kind === "every") {
    const first = nextDueAfter(trigger, anchor, after)!
    if (first > until) return undefined
    const count = Math.floor((until - first) / trigger.milliseconds) + 1
    return { latest: first + (count - 1) * trigger.milliseconds, count }
  }
  let latest: number | undefined
  let count = 0
  let from = after
  for (;;) {
    const next = nextDueAfter(trigger, anchor, from)
    if (next === undefined || next > until) break
    latest = next
    count++
    from = next
    if (count >= countBound) {
      const cron = cronOf(trigger)
      const last = cron.previousRuns(1, new Date(until + 1))[0]
      if (last !== undefined && cron.match(last)) latest = last.getTime()
      break
    }
  }
  return latest === undefined ? undefined : { latest, count }
}
