import { Effect, Either, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { Uuid } from "../../domain/Ids.js"
import { invalidAt } from "../../domain/Rejection.js"
import { storeToRejection } from "../../ledger/unavailable.js"
import { cursorRefused, decodeCursor, encodeCursor } from "../../paging/cursor.js"
import { defaultLimit, EventOrder, PageCursor, PageLimit } from "../../paging/pageFields.js"
import { Ledger } from "../../ports/Ledger.js"
import { readRun } from "../../runs/readRun.js"
import { runStream } from "../../runs/runFacts.js"
import { EventPage, pageBytesBound } from "../EventPage.js"
import { type DerivedEvent, eventsOfFact } from "../stepEvents.js"
import { pageEvent } from "../toEvent.js"
import { withKeptContent } from "../withKeptContent.js"

/** Where a history page goes on: at the fact of this position in the run's stream, past the events shown of it. */
interface HistoryCursor {
  readonly at: number
  readonly skip: number
}

const isHistoryCursor = (position: unknown): position is HistoryCursor =>
  typeof position === "object" &&
  position !== null &&
  Number.isSafeInteger((position as HistoryCursor).at) &&
  (position as HistoryCursor).at >= 1 &&
  Number.isSafeInteger((position as HistoryCursor).skip) &&
  (position as HistoryCursor).skip >= 0

/** The position after `position` in the reading order. */
const beyond = (position: number, order: "asc" | "desc") => (order === "asc" ? position + 1 : position - 1)

/**
 * The facts a page of the history may show, in its order, from `at` (the stream's first or last fact without it):
 * at most `limit` of them, since each shows at least one event or none, and whether the stream holds more beyond.
 * A page never reads the whole stream, however long the run's history (HTTP "Paging").
 */
const readFacts = (stream: string, order: "asc" | "desc", limit: number, at: number | undefined) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    if (order === "asc") {
      const read = yield* storeToRejection(ledger.readStream(stream, { from: at ?? 1, limit: limit + 1 }))
      return { facts: read.slice(0, limit), more: read.length > limit }
    }
    const top = at ?? (yield* storeToRejection(ledger.streamVersion(stream)))
    const low = Math.max(1, top - limit + 1)
    const read = yield* storeToRejection(ledger.readStream(stream, { from: low, limit: top - low + 1 }))
    return { facts: [...read].reverse(), more: low > 1 }
  })

/** get_run_history: the events of one run in the order recorded, oldest first unless `order=desc`. */
export const getRunHistory = declare({
  name: "get_run_history",
  title: "Read a run's history",
  description:
    "Read the events of one run in the order the playbook recorded them, oldest first unless order is desc: each start of it and how it ended, and what it did in between.",
  tag: "events",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/runs/{run_id}/history" },
  input: Schema.Struct({
    run_id: Uuid.annotations({ description: "The run's id." }),
    order: Schema.optional(EventOrder),
    limit: Schema.optional(PageLimit),
    cursor: Schema.optional(PageCursor)
  }),
  output: EventPage,
  permission: "playbook:read",
  served: { http: true, mcp: [] },
  refusals: ["not_found"],
  summarize: ({ events }) => `Found ${events.length} event${events.length === 1 ? "" : "s"} of the run on this page.`,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      const run = yield* readRun(org, playbook!.id, input.run_id)
      const order = input.order ?? "asc"
      const scope = `history:${org}/${playbook!.id}/${run.run_id}/${order}`
      const from = input.cursor === undefined ? undefined : decodeCursor<unknown>(scope, input.cursor)
      if (from !== undefined && (Either.isLeft(from) || !isHistoryCursor(from.right)))
        return yield* Effect.fail(invalidAt("/cursor", cursorRefused))
      const cursor = from === undefined ? undefined : (from.right as HistoryCursor)
      const limit = input.limit ?? defaultLimit
      const stream = runStream(org, playbook!.id, run.run_id)
      const { facts, more } = yield* readFacts(stream, order, limit, cursor?.at)
      const events: Array<DerivedEvent> = []
      let next: HistoryCursor | undefined
      let skip = cursor?.skip ?? 0
      let bytes = 0
      for (const [index, fact] of facts.entries()) {
        const expanded = order === "asc" ? eventsOfFact(fact) : [...eventsOfFact(fact)].reverse()
        const room = limit - events.length
        events.push(...expanded.slice(skip, skip + room))
        if (skip + room < expanded.length) {
          next = { at: fact.metadata.position, skip: skip + room }
          break
        }
        skip = 0
        bytes += JSON.stringify(fact).length
        const after = facts[index + 1]?.metadata.position ?? (more ? beyond(fact.metadata.position, order) : undefined)
        next = after === undefined ? undefined : { at: after, skip: 0 }
        if (events.length >= limit || bytes >= pageBytesBound) break
      }
      return {
        events: (yield* Effect.forEach(events, (event) => withKeptContent(`${org}/${playbook!.id}`, event))).map(
          pageEvent
        ),
        has_more: next !== undefined,
        next_cursor: next === undefined ? null : encodeCursor(scope, next)
      }
    })
})
