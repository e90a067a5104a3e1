import { Effect, Option, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { invalidAt, notFound } from "../../domain/Rejection.js"
import { storeToRejection } from "../../ledger/unavailable.js"
import { Ledger } from "../../ports/Ledger.js"
import { playbookStreamsPrefix } from "../../runs/runFacts.js"
import { isPlaybookEvent } from "../isPlaybookEvent.js"
import { PlaybookEvent } from "../PlaybookEvent.js"
import { eventsOfFact, stepEventOf } from "../stepEvents.js"
import { fullEvent } from "../toEvent.js"
import { withKeptContent } from "../withKeptContent.js"

/** An event id: a UUID, or a step's `<input id>_<n>` with n counted from 1 without a leading zero. */
const eventIdPattern =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?:_([1-9][0-9]*))?$/

/** get_event: one event of the playbook with every field in full. */
export const getEvent = declare({
  name: "get_event",
  title: "Read one event",
  description:
    "Read one event of the playbook by its id with every field in full, such as a whole input or output too large for a page of events. A step's event id is its input's id, an underscore and its number.",
  tag: "events",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/events/{event_id}" },
  input: Schema.Struct({ event_id: Schema.String.annotations({ description: "The event's id." }) }),
  output: PlaybookEvent,
  permission: "playbook:read",
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["not_found"],
  summarize: (event) => event.summary,
  handle: (input, { org, playbook }) =>
    Effect.gen(function* () {
      const match = eventIdPattern.exec(input.event_id)
      if (match === null)
        return yield* Effect.fail(
          invalidAt(
            "/event_id",
            "event_id: is a UUID, or a step's input id, an underscore and its number from 1 without a leading zero."
          )
        )
      const missing = notFound(`The playbook ${playbook!.id} has no event ${input.event_id}.`)
      const ledger = yield* Ledger
      const found = yield* storeToRejection(ledger.readFact(match[1].toLowerCase()))
      if (
        Option.isNone(found) ||
        !found.value.fact.metadata.stream.startsWith(playbookStreamsPrefix(org, playbook!.id)) ||
        !isPlaybookEvent(found.value.fact)
      )
        return yield* Effect.fail(missing)
      const event =
        match[2] === undefined ? eventsOfFact(found.value.fact)[0] : stepEventOf(found.value.fact, Number(match[2]))
      if (event === undefined) return yield* Effect.fail(missing)
      return fullEvent(yield* withKeptContent(`${org}/${playbook!.id}`, event))
    })
})
