import { type DefinitionCounts, noCounts, withCounts, withDuration } from "./DayBucket.js"
import type { StoredHistogram } from "./DurationHistogram.js"
import type { Contribution } from "./RunTally.js"

/**
 * What the ended runs of a playbook that first started on one UTC day did (ADR 0180): the counts of each
 * definition, in the order of the buckets' ids (by `<type>/<name>`), and the durations of all of them. It holds
 * what the day's buckets hold, so a read of the whole playbook reads one document a day.
 */
export interface RunDay {
  readonly day: string
  readonly definitions: ReadonlyArray<DefinitionCounts>
  readonly durations: StoredHistogram
}

/** A day no run counts in yet. */
export const emptyDay = (day: string): RunDay => ({ day, definitions: [], durations: "" })

/** The order of a definition's counts within a day: that of its bucket's id. */
const orderOf = (counts: { readonly type: string; readonly name: string }) => `${counts.type}/${counts.name}`

/**
 * The day with a run of a definition's contribution added (`sign` 1) or taken out again (`sign` -1), as the
 * definition's bucket takes it; a definition left with no run is dropped.
 */
export const dayWithContribution = (
  day: RunDay,
  definition: { readonly type: string; readonly name: string },
  contribution: Contribution,
  sign: 1 | -1
): RunDay => {
  const key = orderOf(definition)
  const found = day.definitions.find((counts) => orderOf(counts) === key)
  const counts = withCounts(found ?? noCounts(definition.type, definition.name), contribution, sign)
  const others = day.definitions.filter((each) => each !== found)
  const definitions = counts.runs.total === 0 ? others : [...others, counts]
  return {
    day: day.day,
    definitions: definitions.sort((left, right) => (orderOf(left) < orderOf(right) ? -1 : 1)),
    durations: withDuration(day.durations, contribution, sign)
  }
}
