import { Clock, Effect, Schema } from "effect"
import { declare } from "../../catalog/Operation.js"
import { Uuid } from "../../domain/Ids.js"
import { invalidAt, invalidInput, notFound, reject } from "../../domain/Rejection.js"
import { jsonBytes } from "../../domain/utf8Bytes.js"
import { eventIssues } from "../../playbookEvents/checkEvent.js"
import { Ids } from "../../ports/Ids.js"
import { readRun } from "../../runs/readRun.js"
import { runStream } from "../../runs/runFacts.js"
import type { RunEvent } from "../engine/WorkflowInput.js"
import { applyEvent } from "../run/driveRun.js"

/** The most bytes an event sent to a run may hold as JSON (256 KiB). */
export const sentEventBound = 262_144

/** An event as sent to a run and as the run took it. */
const SentEvent = Schema.Struct({
  id: Schema.String,
  type: Schema.String,
  source: Schema.String,
  time: Schema.String,
  subject: Schema.optional(Schema.String),
  data: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "SentEvent" })

/** send_run_event: delivers an event to a workflow run that is still started, once per event id. */
export const sendRunEvent = declare({
  name: "send_run_event",
  title: "Send an event to a run",
  description:
    "Deliver an event to a workflow run that is still started: its listen takes it, or the run keeps it until one does. Give type, and optionally id, source, subject and data; id and source are filled in when left out, and time is always set. A run takes an event with a given id only once, so the request can be retried with the same id.",
  tag: "runs",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/runs/{run_id}/events" },
  input: Schema.Struct({
    run_id: Uuid.annotations({ description: "The workflow run's id." }),
    event: Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
      description: "The event: type, and optionally id, source, subject and data."
    })
  }),
  output: Schema.Struct({ run_id: Schema.String, event: SentEvent }),
  permission: "playbook:write",
  hints: { idempotent: true },
  served: { http: true, mcp: ["root", "playbook", "directory"] },
  refusals: ["not_found", "unavailable"],
  summarize: ({ run_id, event }) => `Delivered the event ${event.id} (${event.type}) to the run ${run_id}.`,
  handle: (input, { caller, org, playbook }) =>
    Effect.gen(function* () {
      const given = input.event
      const issues = eventIssues(given, { pointer: "/event", cloudEvent: false })
      if (issues.length > 0) return yield* Effect.fail(invalidInput(issues))
      const now = yield* Clock.currentTimeMillis
      const event: RunEvent = {
        ...given,
        id: typeof given.id === "string" ? given.id : yield* (yield* Ids).uuidv7(now),
        type: given.type as string,
        source: typeof given.source === "string" ? given.source : `/callers/${caller.id}`,
        time: new Date(now).toISOString()
      }
      if (jsonBytes(event) > sentEventBound)
        return yield* Effect.fail(invalidAt("/event", "event: holds more than 256 KiB as JSON."))
      const missing = notFound(`The playbook ${playbook!.id} has no running workflow with the run id ${input.run_id}.`)
      const run = yield* readRun(org, playbook!.id, input.run_id).pipe(
        Effect.mapError((rejection) => (rejection.reason === "not_found" ? missing : rejection))
      )
      if (run.type !== "workflow" || run.status !== "started") return yield* Effect.fail(missing)
      const drove = yield* applyEvent(runStream(org, playbook!.id, run.run_id), event, event.id, false)
      if (!drove.going) return yield* Effect.fail(missing)
      if (drove.broke === true)
        return yield* Effect.fail(
          reject("unavailable", "The run cannot take the event at this moment; try again shortly.", { retryAfter: 1 })
        )
      return { run_id: run.run_id, event: event as typeof SentEvent.Type }
    }).pipe(
      Effect.catchTag("Rejection", (rejection) =>
        rejection.reason === "unavailable"
          ? Effect.fail(
              reject("unavailable", "The run cannot take the event at this moment; try again shortly.", {
                retryAfter: 1
              })
            )
          : Effect.fail(rejection)
      )
    )
})
