import type { Fact } from "../domain/Fact.js"
import type { Projection, ViewDoc, ViewKey } from "../ports/Views.js"
import { type DayBucket, emptyBucket, withContribution } from "./DayBucket.js"
import { foldRunTally, tallyFactTypes } from "./foldRunTally.js"
import { dayWithContribution, emptyDay, type RunDay } from "./RunDay.js"
import { type Contribution, contributionOf, type RunTally } from "./RunTally.js"

/** The view of each run's tally: partition `<org>/<playbook>`, one document per run id, sorted by its first day. */
export const runTallyView = "run_tallies"

/**
 * The view analytics reads for some definitions' runs (type or name given): partition `<org>/<playbook>`, one
 * `DayBucket` per UTC day of first start and definition, id `<day>/<type>/<name>`, sorted by the day.
 */
export const dayBucketView = "run_day_buckets"

/**
 * The view analytics reads for a whole playbook (ADR 0180): partition `<org>/<playbook>`, one `RunDay` per UTC day of
 * first start, id and sort key the day.
 */
export const runDayView = "run_days"

/**
 * A function of one fact that keeps its last answer: the store keys a fact and then folds it into each of its
 * documents one after another, so each of these is worked out once per fact.
 */
const lastAnswer = <A>(answer: (fact: Fact) => A): ((fact: Fact) => A) => {
  let last: { readonly fact: Fact; readonly answer: A } | undefined
  return (fact) => {
    if (last?.fact !== fact) last = { fact, answer: answer(fact) }
    return last.answer
  }
}

/** The run tally a fact of a run's stream changes. */
const tallyKeyOf = lastAnswer((fact): ViewKey | undefined => {
  const [root, org, playbook, kind, runId] = fact.metadata.stream.split("/")
  return root === "playbook" && kind === "runs" && runId !== undefined
    ? { view: runTallyView, partition: `${org}/${playbook}`, id: runId }
    : undefined
})

/**
 * The bucket a fact of a run moves: an ending's, or the start of a later attempt's (which takes the run out until
 * it ends again), found by the day of the run's first start its metadata carries. Other facts move none.
 */
const bucketKeyOf = (fact: Fact, tally: ViewKey): ViewKey | undefined => {
  const { first_started_at: first, definition } = fact.metadata
  if (fact.type === "model_call_answered" || first === undefined || definition === undefined) return undefined
  return {
    view: dayBucketView,
    partition: tally.partition,
    id: `${first.slice(0, 10)}/${definition.type}/${definition.name}`
  }
}

/**
 * The run's tally after a fact, from its tally before: the bucket, the day and the tally a fact changes all fold it
 * from the same tally, so the last fold is kept.
 */
const tallyAfter = (() => {
  let last:
    | { readonly fact: Fact; readonly before: RunTally | undefined; readonly after: RunTally | undefined }
    | undefined
  return (fact: Fact, before: RunTally | undefined): RunTally | undefined => {
    if (last?.fact !== fact || last.before !== before) last = { fact, before, after: foldRunTally(before, fact) }
    return last.after
  }
})()

/**
 * What a fact moves in its run's bucket and day: the run's counted share to take out, and what the run adds after
 * the fact, from the tally as it stood before the fact.
 */
const movedShare = (fact: Fact, before: RunTally | undefined) => ({
  without: before?.counted,
  added: contributionOf(tallyAfter(fact, before))
})

/** A document with a share taken out and another added, by a function that moves one. */
const moved = <D>(
  standing: D,
  share: { readonly without: Contribution | undefined; readonly added: Contribution | undefined },
  move: (doc: D, contribution: Contribution, sign: 1 | -1) => D
): D => {
  const without = share.without === undefined ? standing : move(standing, share.without, -1)
  return share.added === undefined ? without : move(without, share.added, 1)
}

/** The bucket with the run's counted share replaced by what the run adds after the fact. */
const movedBucket = (current: ViewDoc | undefined, fact: Fact, key: ViewKey, before: RunTally | undefined) => {
  const [day, type, name] = key.id.split("/")
  const standing = (current?.data as DayBucket | undefined) ?? emptyBucket(day, type, name)
  const bucket = moved(standing, movedShare(fact, before), withContribution)
  return bucket.runs.total === 0 ? undefined : { id: key.id, sort: day, data: bucket }
}

/** The day with the run's counted share replaced by what it adds after the fact, under the fact's definition. */
const movedDay = (current: ViewDoc | undefined, fact: Fact, key: ViewKey, before: RunTally | undefined) => {
  const definition = fact.metadata.definition!
  const standing = (current?.data as RunDay | undefined) ?? emptyDay(key.id)
  const day = moved(standing, movedShare(fact, before), (doc, contribution, sign) =>
    dayWithContribution(doc, definition, contribution, sign)
  )
  return day.definitions.length === 0 ? undefined : { id: key.id, sort: key.id, data: day }
}

/** The run's tally after the fact, remembering what it adds to its bucket when the fact moved the bucket. */
const nextTally = (current: ViewDoc | undefined, fact: Fact, key: ViewKey) => {
  const next = tallyAfter(fact, current?.data as RunTally | undefined)
  if (next === undefined) return undefined
  const { counted, ...tally } = next
  const now = bucketKeyOf(fact, key) === undefined ? counted : contributionOf(next)
  return { id: key.id, sort: next.day, data: now === undefined ? tally : { ...tally, counted: now } }
}

/**
 * Folds the facts of every run stream into its run's tally and, for an ending or a later start, into the bucket of
 * the run's first day and definition (ADR 0178) and into that day's `RunDay` (ADR 0180). The bucket and the day
 * are keyed first, so they read the tally as it stood before the fact.
 */
export const analyticsProjection: Projection = {
  view: dayBucketView,
  types: tallyFactTypes,
  keys: (fact) => {
    const tally = tallyKeyOf(fact)
    if (tally === undefined) return []
    const bucket = bucketKeyOf(fact, tally)
    if (bucket === undefined) return [tally]
    return [bucket, { view: runDayView, partition: tally.partition, id: bucket.id.slice(0, 10) }, tally]
  },
  apply: (current, fact, key, read) => {
    if (key.view === runTallyView) return nextTally(current, fact, key)
    const before = read(tallyKeyOf(fact)!)?.data as RunTally | undefined
    return key.view === runDayView ? movedDay(current, fact, key, before) : movedBucket(current, fact, key, before)
  }
}
