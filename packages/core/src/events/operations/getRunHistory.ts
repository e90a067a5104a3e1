import { Effect, Either, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { Uuid } from "../../domain/Ids.js"
import { storeToRejection } from "../../ledger/unavailable.js"
import { decodeCursor, encodeCursor } from "../../paging/cursor.js"
import { defaultLimit, EventOrder, PageCursor, PageLimit } from "../../paging/pageFields.js"
import { Ledger } from "../../ports/Ledger.js"
import { readRun } from "../../runs/readRun.js"
import { runStream } from "../../runs/runFacts.js"
import { EventPage } from "../EventPage.js"
import { eventsOfFact } from "../stepEvents.js"
import { pageEvent } from "../toEvent.js"
import { withKeptContent } from "../withKeptContent.js"

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
      const from = input.cursor === undefined ? undefined : decodeCursor<number>(scope, input.cursor)
      if (from !== undefined && Either.isLeft(from)) return yield* Effect.fail(from.left)
      const limit = input.limit ?? defaultLimit
      const ledger = yield* Ledger
      const facts = yield* storeToRejection(ledger.readStream(runStream(org, playbook!.id, run.run_id)))
      const events = facts.flatMap(eventsOfFact)
      const ordered = order === "asc" ? events : events.reverse()
      const start = from === undefined ? 0 : from.right
      const page = ordered.slice(start, start + limit)
      const hasMore = start + page.length < ordered.length
      return {
        events: (yield* Effect.forEach(page, (event) => withKeptContent(`${org}/${playbook!.id}`, event))).map(
          pageEvent
        ),
        has_more: hasMore,
        next_cursor: hasMore ? encodeCursor(scope, start + page.length) : null
      }
    })
})
