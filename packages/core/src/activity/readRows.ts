import { Effect, Option } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Views } from "../ports/Views.js"
import { type ActivityPosition, comparePositions, positionOf } from "./ActivityPosition.js"
import type { ActivityItem, ActivityKind } from "./ActivityRow.js"
import { brokenView } from "./brokenProjection.js"
import { commentRowsView } from "./commentRowsProjection.js"
import { needsYouView } from "./needsYouProjection.js"
import { newRowsView } from "./newRowsProjection.js"
import { changeItem, type PlaybookRegister, registerId, registerView } from "./playbookRegister.js"
import { isListed, isoOf } from "./rowDoc.js"

/** A read of the org's activity, newest first. */
export interface RowRead {
  readonly kinds: ReadonlyArray<ActivityKind>
  /** Only rows older than this place: the cursor of the page before. */
  readonly before?: ActivityPosition
  /** Only rows newer than this place: `since`, or a through. */
  readonly after?: ActivityPosition
  /** The rows to keep of those read. */
  readonly keep: (item: ActivityItem) => boolean
  /** How many kept rows to read at most; every one when left out. */
  readonly limit?: number
}

/** One source of rows, newest first: each pull gives the next row, or none once it is read through. */
type Source = Effect.Effect<ActivityItem | undefined, Rejection>

/** How many documents a source asks its view for at a time. */
const batch = 100

/** The listed rows of one view's partition, newest first, below a place; a kept-but-not-listed document ends it. */
const viewSource = (views: Views["Type"], view: string, org: string, before: ActivityPosition | undefined): Source => {
  const buffer: Array<ActivityItem> = []
  let from = before === undefined ? undefined : { sort: isoOf(before.at), id: before.address }
  let ended = false
  return Effect.suspend(() => {
    if (buffer.length > 0 || ended) return Effect.succeed(buffer.shift())
    return Effect.map(
      storeToRejection(
        views.list(view, org, { direction: "descending", limit: batch, ...(from === undefined ? {} : { after: from }) })
      ),
      (docs) => {
        const listed = docs.filter(isListed)
        ended = docs.length < batch || listed.length < docs.length
        buffer.push(...listed.map((doc) => doc.data as ActivityItem))
        if (docs.length > 0) from = { sort: docs[docs.length - 1].sort, id: docs[docs.length - 1].id }
        return buffer.shift()
      }
    )
  })
}

/** The rows of the org's register of playbooks, newest first. */
export const registerItems = (org: string): Effect.Effect<ReadonlyArray<ActivityItem>, Rejection, Views> =>
  Effect.flatMap(Views, (views) =>
    Effect.map(storeToRejection(views.get({ view: registerView, partition: org, id: registerId })), (found) =>
      Option.match(found, {
        onNone: () => [],
        onSome: (doc) =>
          (doc.data as PlaybookRegister).changes
            .map(changeItem)
            .sort((a, b) => comparePositions(positionOf(b), positionOf(a)))
      })
    )
  )

/** The rows of the org's register of playbooks, newest first, below a place. */
const registerSource = (org: string, before: ActivityPosition | undefined) =>
  Effect.map(registerItems(org), (items) => {
    const rows = items.filter((item) => before === undefined || comparePositions(positionOf(item), before) < 0)
    return Effect.sync(() => rows.shift()) as Source
  })

/** The views each kind's rows are read from. */
const viewsOf: Record<ActivityKind, string> = {
  needs_you: needsYouView,
  broken: brokenView,
  new: newRowsView,
  comment: commentRowsView
}

/**
 * Reads the org's activity of some kinds, newest first by `at` (then address), merging each kind's view and, for
 * `new`, the register of playbooks; reads on until the limit of kept rows is reached or the rows end.
 */
export const readRows = (org: string, read: RowRead): Effect.Effect<ReadonlyArray<ActivityItem>, Rejection, Views> =>
  Effect.gen(function* () {
    const views = yield* Views
    const sources: Array<Source> = read.kinds.map((kind) => viewSource(views, viewsOf[kind], org, read.before))
    if (read.kinds.includes("new")) sources.push(yield* registerSource(org, read.before))
    const heads = yield* Effect.forEach(sources, (source) => source)
    const kept: Array<ActivityItem> = []
    for (;;) {
      let newest = -1
      heads.forEach((head, index) => {
        if (head !== undefined && (newest < 0 || comparePositions(positionOf(head), positionOf(heads[newest]!)) > 0))
          newest = index
      })
      if (newest < 0) break
      const item = heads[newest]!
      if (read.after !== undefined && comparePositions(positionOf(item), read.after) <= 0) break
      heads[newest] = yield* sources[newest]
      if (!read.keep(item)) continue
      kept.push(item)
      if (read.limit !== undefined && kept.length >= read.limit) break
    }
    return kept
  })
