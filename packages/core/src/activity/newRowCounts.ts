import type { ViewDoc, ViewKey } from "../ports/Views.js"
import type { ActivityItem } from "./ActivityRow.js"
import { isoOf } from "./rowDoc.js"

/**
 * The view counting the org's listed new rows by time (ADR 0180): one `NewRowCount` per bucket and playbook, id
 * `<bucket>/<playbook>`, sorted by the bucket, where a bucket is the prefix of the rows' time in ISO 8601 UTC that
 * names its day, hour or minute, so buckets sort as the times they hold. Days are in partition `<org>/day`, the
 * hours of a day in `<org>/hour/<day>`, the minutes of an hour in `<org>/minute/<hour>`, so a listing of a day's
 * hours or an hour's minutes reads no other.
 */
export const newCountsView = "activity_new_counts"

/** The length of the ISO 8601 prefix that names a bucket of each level. */
const prefixLength = { day: 10, hour: 13, minute: 16 } as const

/** A level of the counts: the span of time one bucket covers. */
export type CountLevel = keyof typeof prefixLength

/** The levels, the longest span first, each with the level its partitions are of. */
const countLevels: ReadonlyArray<readonly [CountLevel, CountLevel | undefined]> = [
  ["day", undefined],
  ["hour", "day"],
  ["minute", "hour"]
]

/** The bucket of a level that holds a time written in ISO 8601 UTC. */
export const bucketOf = (iso: string, level: CountLevel): string => iso.slice(0, prefixLength[level])

/** The partition of an org's counts of a level that holds a time: every day's, or its day's hours, or its hour's minutes. */
export const countPartition = (org: string, level: CountLevel, iso: string): string => {
  const within = countLevels.find(([each]) => each === level)![1]
  return within === undefined ? `${org}/${level}` : `${org}/${level}/${bucketOf(iso, within)}`
}

/** How many new rows of one playbook a bucket holds, and how many of them each maker (`seen_by`) made. */
export interface NewRowCount {
  readonly playbook: string
  readonly rows: number
  readonly by: Readonly<Record<string, number>>
}

/** How many rows of a count a caller made, so has seen from the start. */
export const madeBy = (count: NewRowCount, caller: string): number =>
  Object.hasOwn(count.by, caller) ? count.by[caller] : 0

/** The counts a row listed at `at` in a playbook adds to: its day's, its hour's and its minute's. */
export const countKeys = (org: string, playbook: string, at: string): ReadonlyArray<ViewKey> => {
  const iso = isoOf(at)
  return countLevels.map(([level]) => ({
    view: newCountsView,
    partition: countPartition(org, level, iso),
    id: `${bucketOf(iso, level)}/${playbook}`
  }))
}

/** A count with one more row listed: the row's item, of the count's bucket and playbook. */
export const withListedRow = (current: ViewDoc | undefined, key: ViewKey, item: ActivityItem): ViewDoc => {
  const slash = key.id.indexOf("/")
  const count = (current?.data as NewRowCount | undefined) ?? { playbook: key.id.slice(slash + 1), rows: 0, by: {} }
  const maker = item.seen_by
  const next: NewRowCount = {
    playbook: count.playbook,
    rows: count.rows + 1,
    by: maker === null ? count.by : { ...count.by, [maker]: madeBy(count, maker) + 1 }
  }
  return { id: key.id, sort: key.id.slice(0, slash), data: next }
}
