import { Effect, Option } from "effect"
import type { Caller } from "../domain/Caller.js"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { type ViewDoc, Views } from "../ports/Views.js"
import type { ActivityAccess } from "./ActivityAccess.js"
import { type ActivityPosition, comparePositions, positionOf } from "./ActivityPosition.js"
import type { ActivityItem } from "./ActivityRow.js"
import { bucketOf, type CountLevel, countPartition, madeBy, type NewRowCount, newCountsView } from "./newRowCounts.js"
import { newRowsView } from "./newRowsProjection.js"
import { registerItems } from "./readRows.js"
import { isListed, isoOf } from "./rowDoc.js"
import type { SeenReader } from "./SeenReader.js"
import type { SeenState } from "./seenProjection.js"

/** The first and the last instant written with a four-digit year, as every row's time is. */
const earliest = Date.parse("0000-01-01T00:00:00.000Z")
const latest = Date.parse("9999-12-31T23:59:59.999Z")

/**
 * A through as a place between rows: the same rows after it, at a whole millisecond of a four-digit year, so its
 * time written in ISO 8601 sorts among the rows' (a cursor may name any number).
 */
const boundOf = (through: ActivityPosition): { readonly iso: string; readonly address: string } => {
  if (through.at < earliest) return { iso: isoOf(earliest), address: "" }
  if (through.at > latest) return { iso: isoOf(latest), address: "\uffff" }
  const whole = Math.floor(through.at)
  return { iso: isoOf(whole), address: whole === through.at ? through.address : "\uffff" }
}

/** The most documents one listing of a view loads. */
const mostPerPage = 1000

/** The first page of the rows of a through's minute: most minutes hold a few rows after a through, if any. */
const firstRowsPage = 10

/**
 * The documents of a partition after a place, in ascending order, while `within` holds: page by page from a first
 * page of `first` documents, each page twice the one before up to 1,000, stopping at the first document outside;
 * a small first page keeps a read that ends soon from loading many documents it does not keep.
 */
const listWhile = (
  view: string,
  partition: string,
  after: { readonly sort: string; readonly id: string },
  within: (doc: ViewDoc) => boolean,
  first = mostPerPage
): Effect.Effect<ReadonlyArray<ViewDoc>, Rejection, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const found: Array<ViewDoc> = []
    let from = after
    for (let limit = first; ; limit = Math.min(2 * limit, mostPerPage)) {
      const page = yield* storeToRejection(views.list(view, partition, { direction: "ascending", limit, after: from }))
      const kept = page.filter(within)
      found.push(...kept)
      if (page.length < limit || kept.length < page.length) return found
      from = { sort: page[page.length - 1].sort, id: page[page.length - 1].id }
    }
  })

/** The counts of a level after the bucket that holds a time, in the partition that holds it. */
const countsAfter = (org: string, level: CountLevel, iso: string) =>
  Effect.map(
    listWhile(newCountsView, countPartition(org, level, iso), { sort: bucketOf(iso, level), id: "\uffff" }, () => true),
    (docs) => docs.map((doc) => doc.data as NewRowCount)
  )

/**
 * How many listed new rows after a through the caller sees and did not make, from the counts (ADR 0180): the rows
 * of the through's own minute after it one by one, then the counts of the later minutes of its hour, the later hours
 * of its day and the later days. The documents read grow with the time since the through, never with the rows.
 */
const unmadeRowsAfter = (org: string, caller: Caller, access: ActivityAccess, through: ActivityPosition) =>
  Effect.gen(function* () {
    const bound = boundOf(through)
    const minute = bucketOf(bound.iso, "minute")
    const rows = yield* listWhile(
      newRowsView,
      org,
      { sort: bound.iso, id: bound.address },
      (doc) => doc.sort.startsWith(minute),
      firstRowsPage
    )
    const counts = [
      ...(yield* countsAfter(org, "minute", bound.iso)),
      ...(yield* countsAfter(org, "hour", bound.iso)),
      ...(yield* countsAfter(org, "day", bound.iso))
    ]
    const unmade = rows
      .map((doc) => doc.data as ActivityItem)
      .filter((item) => access.visible(item) && item.seen_by !== caller.id).length
    return counts
      .filter((count) => access.visible(count))
      .reduce((total, count) => total + count.rows - madeBy(count, caller.id), unmade)
  })

/** The forms of the addresses of the `activity_new` view's rows: a run's, a version's. */
const listedAddress = /^[^/]+\/(runs|definitions)\//

/**
 * How many of the caller's marks after the through name a listed new row they see and did not make, at its time:
 * the rows the counts hold that the caller has seen all the same.
 */
const markedRowsAfter = (
  org: string,
  caller: Caller,
  access: ActivityAccess,
  state: SeenState,
  through: ActivityPosition
) =>
  Effect.flatMap(Views, (views) =>
    Effect.map(
      Effect.forEach(
        state.marks.filter((mark) => comparePositions(mark, through) > 0 && listedAddress.test(mark.address)),
        (mark) =>
          Effect.map(storeToRejection(views.get({ view: newRowsView, partition: org, id: mark.address })), (found) =>
            Option.exists(found, (doc) => {
              const item = doc.data as ActivityItem
              return (
                isListed(doc) &&
                comparePositions(positionOf(item), mark) === 0 &&
                access.visible(item) &&
                item.seen_by !== caller.id
              )
            })
          ),
        { concurrency: 8 }
      ),
      (marked) => marked.filter(Boolean).length
    )
  )

/**
 * The caller's count of new rows not seen (HTTP "Seen and counted"): the register's playbook changes they have not
 * seen, and the listed runs and versions after their through they see, did not make and did not mark.
 */
export const countUnseenNew = (
  org: string,
  caller: Caller,
  access: ActivityAccess,
  state: SeenState,
  reader: SeenReader
): Effect.Effect<number, Rejection, Views> =>
  Effect.gen(function* () {
    const register = (yield* registerItems(org)).filter(
      (item) => comparePositions(positionOf(item), reader.through) > 0 && access.visible(item) && !reader.seen(item)
    ).length
    const unmade = yield* unmadeRowsAfter(org, caller, access, reader.through)
    const marked = yield* markedRowsAfter(org, caller, access, state, reader.through)
    return register + unmade - marked
  })
