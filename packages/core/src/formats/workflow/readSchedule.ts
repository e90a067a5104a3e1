import { Either } from "effect"
import { describeValue } from "../document/describeValue.js"
import type { EventFilter } from "./EventFilter.js"
import { wrappedCode } from "./Expression.js"
import { issueAt, placeOf, type Reading, readFields } from "./Reading.js"
import { readCron } from "./readCron.js"
import { readDuration } from "./readDuration.js"
import { readEventFilter } from "./readEventFilter.js"
import { filterScope } from "./Scope.js"
import type { Trigger } from "./Trigger.js"

/** The most filters an event trigger holds (workflow-format.md §12.2, §15). */
export const maxTriggerFilters = 64

/** The shortest period of an `every` trigger, in milliseconds (§12.3). */
export const minEveryMilliseconds = 60_000

const oneRun = "one run per event or due time"

/** The filter's attributes in a form equal for equal filters, whatever their key order. */
const filterKey = (filter: EventFilter): string =>
  JSON.stringify(
    filter.attributes
      .map(([name, value]) => [name, value._tag === "Literal" ? sorted(value.value) : value.source] as const)
      .toSorted(([left], [right]) => (left < right ? -1 : 1))
  )

const sorted = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(sorted)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(
          Object.entries(value)
            .toSorted(([left], [right]) => (left < right ? -1 : 1))
            .map(([key, item]) => [key, sorted(item)])
        )
      : value

const readOn = (reading: Reading, value: unknown): Trigger | undefined => {
  const on = readFields(reading, value, "/schedule/on", placeOf(["one", "any"], [], { all: oneRun, until: oneRun }))
  if (on === undefined) return undefined
  const ways = ["one", "any"].filter((way) => way in on)
  if (ways.length !== 1) {
    issueAt(reading, "/schedule/on", "an event trigger names exactly one of one (a filter) or any (a list of filters)")
    return undefined
  }
  const filters: Array<EventFilter & { type: string }> = []
  const take = (filter: EventFilter | undefined) => {
    const type = filter?.attributes.find(([name]) => name === "type")?.[1]
    if (filter !== undefined && type?._tag === "Literal") filters.push({ ...filter, type: type.value as string })
  }
  if (on.one !== undefined) take(readEventFilter(reading, on.one, "/schedule/on/one", true))
  if (on.any !== undefined) {
    if (!Array.isArray(on.any) || on.any.length === 0 || on.any.length > maxTriggerFilters) {
      issueAt(
        reading,
        "/schedule/on/any",
        `any lists 1 to ${maxTriggerFilters} filters, found ${Array.isArray(on.any) ? `${on.any.length}` : describeValue(on.any)}`
      )
      return undefined
    }
    const seen = new Map<string, number>()
    on.any.forEach((item, index) => {
      const filter = readEventFilter(reading, item, `/schedule/on/any/${index}`, true)
      if (filter === undefined) return
      const key = filterKey(filter)
      const earlier = seen.get(key)
      if (earlier !== undefined) {
        issueAt(reading, filter.reference, `this filter repeats the filter at /schedule/on/any/${earlier}`)
        return
      }
      seen.set(key, index)
      take(filter)
    })
  }
  return { kind: "event", reference: "/schedule/on", filters }
}

/**
 * Reads `schedule` (workflow-format.md §12): one to three triggers, in the order `on`, `cron`, `every`. Refused:
 * `after`, `on.all`, `on.until`, a schedule naming no trigger, duplicate or too many filters, a cron rule that is
 * not five fields or never due, an unknown zone (decision W4), an `every` under a minute or computed.
 */
export const readSchedule = (reading: Reading, value: unknown): ReadonlyArray<Trigger> => {
  const schedule = readFields(reading, value, "/schedule", placeOf(["on", "cron", "every"], [], { after: oneRun }))
  if (schedule === undefined) return []
  if (!["on", "cron", "every"].some((key) => key in schedule)) {
    issueAt(reading, "/schedule", "a schedule names one or more triggers: on, cron or every")
    return []
  }
  const triggers: Array<Trigger> = []
  if (schedule.on !== undefined) {
    const on = readOn(reading, schedule.on)
    if (on !== undefined) triggers.push(on)
  }
  if (schedule.cron !== undefined) {
    if (typeof schedule.cron !== "string") {
      issueAt(
        reading,
        "/schedule/cron",
        `expected a cron rule such as '0 7 * * 1-5', found ${describeValue(schedule.cron)}`
      )
    } else {
      Either.match(readCron(schedule.cron), {
        onLeft: (words) => issueAt(reading, "/schedule/cron", words),
        onRight: (rule) => triggers.push({ kind: "cron", reference: "/schedule/cron", ...rule })
      })
    }
  }
  if (schedule.every !== undefined) {
    if (typeof schedule.every === "string" && wrappedCode(schedule.every) !== undefined) {
      issueAt(reading, "/schedule/every", "every is written, not computed: write a duration such as PT30M")
    } else {
      const every = readDuration(reading, schedule.every, "/schedule/every", filterScope)
      if (every?._tag === "Fixed" && every.milliseconds < minEveryMilliseconds) {
        issueAt(reading, "/schedule/every", "every is at least one minute (PT1M)")
      } else if (every?._tag === "Fixed") {
        triggers.push({ kind: "every", reference: "/schedule/every", milliseconds: every.milliseconds })
      }
    }
  }
  return triggers
}
