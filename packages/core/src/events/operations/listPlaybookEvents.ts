import { Effect, Either, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { Uuid } from "../../domain/Ids.js"
import { invalidAt } from "../../domain/Rejection.js"
import { storeToRejection } from "../../ledger/unavailable.js"
import { cursorRefused, decodeCursor, encodeCursor } from "../../paging/cursor.js"
import { defaultLimit, EventOrder, PageCursor, PageLimit } from "../../paging/pageFields.js"
import { type GlobalFilter, Ledger, type PositionedFact } from "../../ports/Ledger.js"
import { playbookStreamsPrefix } from "../../runs/runFacts.js"
import { workflowInputApplied } from "../../workflow/run/workflowFacts.js"
import { EventPage, pageBytesBound } from "../EventPage.js"
import { isPlaybookEvent } from "../isPlaybookEvent.js"
import { parseSince } from "../parseSince.js"
import { type DerivedEvent, eventsOfFact, stepEventTypeNames } from "../stepEvents.js"
import { pageEvent } from "../toEvent.js"
import { withKeptContent } from "../withKeptContent.js"

/**
 * Where the next page of events begins: after a position of the ledger, less the events of the next fact already
 * given (a workflow input shows as several events, and a page may end among them).
 */
interface EventsCursor {
  readonly after?: string
  readonly skip: number
}

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
      const stepType = input.type !== undefined && stepEventTypeNames.has(input.type)
      const filter: GlobalFilter = {
        streamPrefix: playbookStreamsPrefix(org, playbook!.id),
        ...(input.type === undefined ? {} : { types: [stepType ? workflowInputApplied : input.type] }),
        ...(input.run_id === undefined ? {} : { correlationId: input.run_id.toLowerCase() })
      }
      const scope = `events:${org}/${playbook!.id}/${order}/${input.type ?? ""}/${input.run_id ?? ""}/${input.since ?? ""}`
      const from = input.cursor === undefined ? undefined : decodeCursor<EventsCursor>(scope, input.cursor)
      if (from !== undefined && Either.isLeft(from)) return yield* Effect.fail(from.left)
      const limit = input.limit ?? defaultLimit
      const ledger = yield* Ledger
      const after = from?.right.after
      const loaded: ReadonlyArray<PositionedFact> = yield* storeToRejection(
        ledger.readAll({
          direction: order === "asc" ? "forward" : "backward",
          limit: limit + 1,
          filter,
          ...(after === undefined ? {} : { from: after })
        })
      ).pipe(Effect.catchTag("InvalidPosition", () => Effect.fail(invalidAt("/cursor", cursorRefused))))
      const shows = (event: DerivedEvent) =>
        (input.type === undefined || event.type === input.type) &&
        (since === undefined || Date.parse(event.metadata.at) >= since)
      const events: Array<DerivedEvent> = []
      let bytes = 0
      let ended = false
      let next: EventsCursor | undefined
      let before = after
      let skip = from?.right.skip ?? 0
      for (const positioned of loaded.slice(0, limit)) {
        const fact = positioned.fact
        if (since !== undefined && order === "desc" && Date.parse(fact.metadata.at) < since) {
          ended = true
          break
        }
        const expanded = isPlaybookEvent(fact) ? eventsOfFact(fact).filter(shows) : []
        const ordered = order === "asc" ? expanded : [...expanded].reverse()
        const room = limit - events.length
        events.push(...ordered.slice(skip, skip + room))
        if (skip + room < ordered.length) {
          next = { ...(before === undefined ? {} : { after: before }), skip: skip + room }
          break
        }
        skip = 0
        before = positioned.position
        next = { after: positioned.position, skip: 0 }
        bytes += JSON.stringify(fact).length
        if (events.length >= limit || bytes >= pageBytesBound) break
      }
      const partial = next !== undefined && next.skip > 0
      const hasMore =
        !ended &&
        (partial || (next !== undefined && loaded.findIndex((p) => p.position === next!.after) < loaded.length - 1))
      return {
        events: (yield* Effect.forEach(events, (event) => withKeptContent(`${org}/${playbook!.id}`, event))).map(
          pageEvent
        ),
        has_more: hasMore,
        next_cursor: hasMore && next !== undefined ? encodeCursor(scope, next) : null
      }
    })
})
