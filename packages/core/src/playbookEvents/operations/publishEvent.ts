import { Clock, Effect, Option, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { conflict, invalidAt, invalidInput } from "../../domain/Rejection.js"
import { jsonBytes } from "../../domain/utf8Bytes.js"
import { placeFacts } from "../../ledger/decide.js"
import { storeToRejection } from "../../ledger/unavailable.js"
import { Ids } from "../../ports/Ids.js"
import { Ledger } from "../../ports/Ledger.js"
import { canonicalJson } from "../../runs/canonicalDigest.js"
import { eventIssues, rfc3339Instant } from "../checkEvent.js"
import {
  type CloudEvent,
  type EventPublished,
  eventPublished,
  eventPublishedData,
  playbookEventStream
} from "../eventPublished.js"

/** The most bytes a published event may hold as JSON once its id and time are filled in (240 KiB). */
export const publishedEventBound = 245_760

/** What publish_event answers: the event's id and time, and when the playbook recorded it. */
const PublishedEvent = Schema.Struct({
  id: Schema.String,
  time: Schema.String,
  recorded_at: Schema.String
}).annotations({
  identifier: "PublishedEvent"
})

/** Whether a retry is the same event as the one recorded: the same attributes, times compared as instants. */
const sameEvent = (recorded: EventPublished, given: Record<string, unknown>): boolean => {
  const { time: recordedTime, specversion: _s, ...recordedRest } = recorded.event
  const { time: givenTime, specversion: _g, ...givenRest } = given
  if (canonicalJson(recordedRest) !== canonicalJson(givenRest)) return false
  if (givenTime === undefined || recorded.filled.includes("time")) return true
  return rfc3339Instant(String(givenTime)) === rfc3339Instant(recordedTime)
}

/** The answer of an event as recorded. */
const answerOf = (data: EventPublished, recordedAt: string) => ({
  id: data.event_id,
  time: data.time,
  recorded_at: recordedAt
})

/** publish_event: records a CloudEvents 1.0 event in the playbook, once per source and id. */
export const publishEvent = declare({
  name: "publish_event",
  title: "Publish an event",
  description:
    "Record an event in the playbook, such as a month closed in a ledger or a deal won in a CRM: a CloudEvents 1.0 event with source and type, and optionally id, time, subject, data and extensions. It starts the workflows whose event trigger matches it and reaches the runs listening for its type. Publishing the same source and id again records nothing and returns the first.",
  tag: "events",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/events" },
  input: Schema.Struct({
    event: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
      description:
        "A CloudEvents 1.0 event: source and type, and optionally id, time, subject, specversion, datacontenttype, dataschema, data and up to 32 extensions."
    })
  }),
  output: PublishedEvent,
  permission: "playbook:write",
  hints: { idempotent: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["conflict"],
  summarize: (published) => `Recorded the event ${published.id} at ${published.recorded_at}.`,
  handle: (input, { caller, org, playbook }) =>
    Effect.gen(function* () {
      const given = input.event
      const issues = eventIssues(given, { pointer: "/event", cloudEvent: true })
      if (issues.length > 0) return yield* Effect.fail(invalidInput(issues))
      const now = yield* Clock.currentTimeMillis
      const ids = yield* Ids
      const id = typeof given.id === "string" ? given.id : yield* ids.uuidv7(now)
      const filled: Array<"id" | "time" | "specversion"> = []
      if (given.id === undefined) filled.push("id")
      if (given.time === undefined) filled.push("time")
      if (given.specversion === undefined) filled.push("specversion")
      const recordedAt = new Date(now).toISOString()
      const filledIn = { ...given, id, time: typeof given.time === "string" ? given.time : recordedAt }
      if (jsonBytes(filledIn) > publishedEventBound)
        return yield* Effect.fail(
          invalidAt("/event", "event: holds more than 240 KiB as JSON once its id and time are filled in.")
        )
      const event = { ...filledIn, specversion: "1.0" } as CloudEvent
      const ledger = yield* Ledger
      const stream = playbookEventStream(org, playbook!.id, event.source, id)
      const recorded = (
        facts: ReadonlyArray<{ readonly data: unknown; readonly metadata: { readonly at: string } }>
      ) => {
        const first = facts[0]
        if (first === undefined) return undefined
        const data = first.data as EventPublished
        return sameEvent(data, given)
          ? Effect.succeed(answerOf(data, first.metadata.at))
          : Effect.fail(
              conflict(`The playbook already holds another event with the source ${event.source} and the id ${id}.`)
            )
      }
      const earlier = recorded(yield* storeToRejection(ledger.readStream(stream, { limit: 1 })))
      if (earlier !== undefined) return yield* earlier
      const [fact] = yield* placeFacts(
        [{ type: eventPublished, data: eventPublishedData(event, filled), metadata: { depth: 1, at: recordedAt } }],
        caller.id
      )
      const appended = yield* storeToRejection(ledger.append([{ stream, expected: 0, facts: [fact!] }])).pipe(
        Effect.map((result) => Option.some(result.facts[0]!)),
        Effect.catchTag("VersionConflict", () => Effect.succeed(Option.none()))
      )
      if (Option.isNone(appended)) {
        const raced = recorded(yield* storeToRejection(ledger.readStream(stream, { limit: 1 })))
        if (raced !== undefined) return yield* raced
        return yield* Effect.fail(conflict("Another request recorded an event at the same moment; send it again."))
      }
      return answerOf(appended.value.data as EventPublished, appended.value.metadata.at)
    })
})
