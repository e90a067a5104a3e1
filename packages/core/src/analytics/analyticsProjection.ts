import type { Fact } from "../domain/Fact.js"
import type { Projection, ViewDoc, ViewKey } from "../ports/Views.js"
import { type DayBucket, emptyBucket, withContribution } from "./DayBucket.js"
import { foldRunTally, tallyFactTypes } from "./foldRunTally.js"
import { contributionOf, type RunTally } from "./RunTally.js"

/** The view of each run's tally: partition `<org>/<playbook>`, one document per run id, sorted by its first day. */
export const runTallyView = "run_tallies"

/**
 * The view analytics reads: partition `<org>/<playbook>`, one `DayBucket` per UTC day of first start and
 * definition, id `<day>/<type>/<name>`, sorted by the day.
 */
export const dayBucketView = "run_day_buckets"

/** The run tally a fact of a run's stream changes. */
const tallyKeyOf = (fact: Fact): ViewKey | undefined => {
  const [root, org, playbook, kind, runId] = fact.metadata.stream.split("/")
  return root === "playbook" && kind === "runs" && runId !== undefined
    ? { view: runTallyView, partition: `${org}/${playbook}`, id: runId }
    : undefined
}

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

/** The bucket with the run's counted share replaced by what the run adds after the fact. */
const movedBucket = (current: ViewDoc | undefined, fact: Fact, key: ViewKey, before: RunTally | undefined) => {
  const [day, type, name] = key.id.split("/")
  const standing = (current?.data as DayBucket | undefined) ?? emptyBucket(day, type, name)
  const without = before?.counted === undefined ? standing : withContribution(standing, before.counted, -1)
  const added = contributionOf(foldRunTally(before, fact))
  const bucket = added === undefined ? without : withContribution(without, added, 1)
  return bucket.runs.total === 0 ? undefined : { id: key.id, sort: day, data: bucket }
}

/** The run's tally after the fact, remembering what it adds to its bucket when the fact moved the bucket. */
const nextTally = (current: ViewDoc | undefined, fact: Fact, key: ViewKey) => {
  const next = foldRunTally(current?.data as RunTally | undefined, fact)
  if (next === undefined) return undefined
  const { counted, ...tally } = next
  const now = bucketKeyOf(fact, key) === undefined ? counted : contributionOf(next)
  return { id: key.id, sort: next.day, data: now === undefined ? tally : { ...tally, counted: now } }
}

/**
 * Folds the facts of every run stream into its run's tally and, for an ending or a later start, into the bucket of
 * the run's first day (ADR 0178). The bucket is keyed first, so it reads the tally as it stood before the fact.
 */
export const analyticsProjection: Projection = {
  view: dayBucketView,
  types: tallyFactTypes,
  keys: (fact) => {
    const tally = tallyKeyOf(fact)
    if (tally === undefined) return []
    const bucket = bucketKeyOf(fact, tally)
    return bucket === undefined ? [tally] : [bucket, tally]
  },
  apply: (current, fact, key, read) => {
    if (key.view === runTallyView) return nextTally(current, fact, key)
    const tally = tallyKeyOf(fact)!
    return movedBucket(current, fact, key, read(tally)?.data as RunTally | undefined)
  }
}
