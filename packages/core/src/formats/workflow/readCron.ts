import { Cron } from "croner"
import { Either } from "effect"

/** A cron trigger's rule as read: its five fields and its IANA zone, if it names one (decision W4). */
export interface CronRule {
  readonly expression: string
  readonly timeZone?: string
}

const zonePrefix = /^CRON_TZ=(\S*)\s+([\s\S]*)$/

/** A moment every rule's next due time is sought from, so a reading never depends on the clock. */
const searchFrom = new Date(Date.UTC(2000, 0, 1))

const knownZone = (zone: string): boolean =>
  Either.isRight(Either.try(() => new Intl.DateTimeFormat("en", { timeZone: zone })))

/**
 * Reads a `cron` trigger's text (workflow-format.md §12.3, decision W4): an optional `CRON_TZ=<IANA zone> `
 * prefix, then exactly five fields (minute, hour, day of month, month, day of week) that are due at some time,
 * checked with croner. Left: words saying why not.
 */
export const readCron = (text: string): Either.Either<CronRule, string> => {
  const prefixed = zonePrefix.exec(text.trim())
  const timeZone = prefixed?.[1]
  const expression = (prefixed?.[2] ?? text).trim()
  if (timeZone !== undefined && (timeZone === "" || !knownZone(timeZone))) {
    return Either.left(`${JSON.stringify(timeZone)} is not a known IANA time zone, such as Europe/Paris`)
  }
  const fields = expression.split(/\s+/).filter((field) => field !== "")
  if (fields.length !== 5) {
    return Either.left(
      `a cron rule has exactly five fields (minute, hour, day of month, month, day of week), found ${fields.length}`
    )
  }
  const rule = fields.join(" ")
  return Either.try({
    try: () => new Cron(rule, { timezone: timeZone ?? "UTC", mode: "5-part", paused: true }).nextRun(searchFrom),
    catch: (error) => `the cron rule cannot be read: ${error instanceof Error ? error.message : String(error)}`
  }).pipe(
    Either.flatMap((next) =>
      next === null
        ? Either.left("this cron rule is never due")
        : Either.right({ expression: rule, ...(timeZone === undefined ? {} : { timeZone }) })
    )
  )
}
