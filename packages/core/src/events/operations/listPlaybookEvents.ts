import { Effect, Either, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { Uuid } from "../../domain/Ids.js"
import { invalidAt } from "../../domain/Rejection.js"
import { storeToRejection } from "../../ledger/unavailable.js"
import { cursorRefused, decodeCursor, encodeCursor } from "../../paging/cursor.js"
import { defaultLimit, EventOrder, PageCursor, PageLimit } from "../../paging/pageFields.js"
import { type GlobalFilter, Ledger, type PositionedFact } from "../../ports/Ledger.js"
import { playbookStreamsPrefix } from "../../runs/runFacts.js"
import { EventPage, pageBytesBound } from "../EventPage.js"
import { isPlaybookEvent } from "../isPlaybookEvent.js"
import { parseSince } from "../parseSince.js"
import { pageEvent } from "../toEvent.js"

/** list_playbook_events: the playbook's events, newest first unless `order=asc`, filtered and paged. */
export const listPlaybookEvents = declare({
  name: "list_playbook_events",
  title: "List the playbook's events",
  description:
    "List the events of the whole playbook, newest first unless order is asc: definitions saved, runs started and ended, and what they did. type keeps one event type, since keeps what was recorded from that time on, and run_id keeps what one run and every run it started recorded. Pages come one at a time: read on from the next_cursor of the page before, until it is null.",
  tag: "events",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/events" },
  input: Schema.Struct({
    type: Schema.optional(Schema.String.annotations({ description: "One event type to keep." })),
    since: Schema.optional(Schema.String.annotations({ description: "An ISO 8601 time with its offset." })),
    run_id: Schema.optional(Uuid.annotations({ description: "A run whose whole tree to keep." })),
    order: Schema.optional(EventOrder),
    limit: Schema.optional(PageLimit),
    cursor: Schema.optional(PageCursor)
  }),
  output: EventPage,
  permission: "playbook:read",
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  summarize: ({ events, has_more }, input) =>
    `Found ${events.length} event${events.length === 1 ? "" : "s"}${input.run_id ? " of the run asked for" : ""} in this playbook, ${input.order === "asc" ? "oldest" : "newest"} first${has_more ? "; more follow from next_cursor" : ""}.`,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      const since = input.since === undefined ? undefined : parseSince(input.since)
      if (since === null)
        return yield* Effect.fail(
          invalidAt(
            "/since",
            "since: is not an ISO 8601 time with its offset that exists in the calendar, such as 2026-10-05T09:00:00Z."
          )
        )
      const order = input.order ?? "desc"
      const filter: GlobalFilter = {
        streamPrefix: playbookStreamsPrefix(org, playbook!.id),
        ...(input.type === undefined ? {} : { types: [input.type] }),
        ...(input.run_id === undefined ? {} : { correlationId: input.run_id.toLowerCase() })
      }
      const scope = `events:${org}/${playbook!.id}/${order}/${input.type ?? ""}/${input.run_id ?? ""}/${input.since ?? ""}`
      const from = input.cursor === undefined ? undefined : decodeCursor<string>(scope, input.cursor)
      if (from !== undefined && Either.isLeft(from)) return yield* Effect.fail(from.left)
      const limit = input.limit ?? defaultLimit
      const ledger = yield* Ledger
      const loaded: ReadonlyArray<PositionedFact> = yield* storeToRejection(
        ledger.readAll({
          direction: order === "asc" ? "forward" : "backward",
          limit: limit + 1,
          filter,
          ...(from === undefined ? {} : { from: from.right })
        })
      ).pipe(Effect.catchTag("InvalidPosition", () => Effect.fail(invalidAt("/cursor", cursorRefused))))
      const page: Array<PositionedFact> = []
      let bytes = 0
      let ended = false
      for (const positioned of loaded.slice(0, limit)) {
        const at = Date.parse(positioned.fact.metadata.at)
        if (since !== undefined && at < since) {
          if (order === "desc") {
            ended = true
            break
          }
          page.push(positioned)
          continue
        }
        bytes += JSON.stringify(positioned.fact).length
        page.push(positioned)
        if (bytes >= pageBytesBound) break
      }
      const shown = page.filter(
        (positioned) =>
          isPlaybookEvent(positioned.fact) && (since === undefined || Date.parse(positioned.fact.metadata.at) >= since)
      )
      const hasMore = !ended && page.length < loaded.length
      return {
        events: shown.map((positioned) => pageEvent(positioned.fact)),
        has_more: hasMore,
        next_cursor: hasMore ? encodeCursor(scope, page[page.length - 1].position) : null
      }
    })
})
