import { Effect, Either, Option } from "effect"
import { conflict, invalidInput, type Rejection, reject } from "../../domain/Rejection.js"
import { InteractionSettings } from "../../interactions/InteractionSettings.js"
import type { InteractionRequested, RequestRecord } from "../../interactions/interactionFacts.js"
import {
  type OpenRequests,
  openRequestsId,
  openRequestsPartition,
  openRequestsView,
  requestSlotsStream,
  requestSlotTaken
} from "../../interactions/openRequestsProjection.js"
import type { FormatEnding, FormatRun } from "../DefinitionFormat.js"
import { schemaValidator } from "../jsonSchema/SchemaValidator.js"
import { readInteraction } from "./readInteraction.js"
import { momentsOf, renderTemplate } from "./renderTemplate.js"
import { toolServersUnserved } from "./toolServersUnserved.js"

/** Bounds of a rendered request (function-formats.md §3.9). */
export const requestBounds = { toBytes: 256, messageBytes: 8_192 }

const rejected = (rejection: Rejection): FormatEnding => ({ _tag: "Rejected", rejection })

const bytesOf = (text: string) => Buffer.byteLength(text, "utf8")

// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/

/** No open requests, and a slots stream not yet written. */
const noRequests: OpenRequests = { open: 0, slots: 0 }

/** The playbook's open requests and slots version, as the `open_requests` view holds them; none outside a playbook. */
const openRequests = ({ playbook }: FormatRun) =>
  playbook === undefined
    ? Effect.succeed(noRequests)
    : playbook.views
        .get({
          view: openRequestsView,
          partition: openRequestsPartition,
          id: openRequestsId(playbook.org, playbook.id)
        })
        .pipe(
          Effect.map(
            Option.match({
              onNone: () => noRequests,
              onSome: (doc) => doc.data as OpenRequests
            })
          )
        )

/**
 * Carries out an interaction run (function-formats.md §3.7, §3.8): the input schema; the cap on the playbook's
 * open requests; `to` and the message rendered over input, today and now at the run's start; and, when both
 * fit, the request recorded as `interaction_requested` and `run_deferred` with a `Started` ending, and a slot of
 * the playbook claimed at the version the count was read at (ADR 0190): the run waits without holding memory
 * until the host ends it. A missing field or a stopped render is `invalid_input`; a `to` that is not text, empty,
 * too long or holds a control character, or a message over 8 KiB, is `unworkable`.
 */
export const runInteraction = (run: FormatRun): Effect.Effect<FormatEnding> =>
  Effect.gen(function* () {
    const read = readInteraction(run.source)
    if (Either.isLeft(read)) return rejected(reject("internal", "The saved document of this version no longer reads."))
    const { document, to, message, expiresMillis, deliver, answerSchema } = read.right
    if (deliver !== "agent" || to === undefined || message === undefined || expiresMillis === undefined)
      return rejected(reject("unavailable", toolServersUnserved, { kind: "tool_not_offered" }))
    const inputIssues =
      document.inputSchema === undefined
        ? []
        : Either.match(schemaValidator(document.inputSchema), {
            onLeft: () => [],
            onRight: (validate) => validate(run.input, "/input")
          })
    if (inputIssues.length > 0) return rejected(invalidInput(inputIssues, "input_schema"))
    const settings = yield* InteractionSettings
    const open = yield* Effect.either(openRequests(run))
    if (Either.isLeft(open))
      return rejected(
        reject("unavailable", "The playbook's open requests cannot be counted now; send the run again.", {
          retryAfter: 1
        })
      )
    if (open.right.open >= settings.openRequestCap)
      return rejected(
        reject(
          "unavailable",
          `The playbook already holds ${open.right.open} open requests, as many as this runtime allows (${settings.openRequestCap}); answer or cancel some, then run it again.`,
          { kind: "requests_full", retryAfter: 60 }
        )
      )
    const { today, now } = momentsOf(run.startedAt)
    const scope = { input: run.input, today, now }
    const render = (what: string, template: NonNullable<typeof to>) =>
      Either.mapLeft(renderTemplate(template.text, template.template, scope), (stop) =>
        stop._tag === "missing"
          ? invalidInput([
              {
                pointer: stop.field?.startsWith("input.") ? `/${stop.field.replaceAll(".", "/")}` : "/input",
                detail: `The ${what} template, at its line ${stop.line}, reads ${stop.field}, which the input does not have.`
              }
            ])
          : invalidInput([
              { pointer: "/input", detail: `The ${what} template, at its line ${stop.line}: ${stop.words}.` }
            ])
      )
    const party = render("to", to)
    if (Either.isLeft(party)) return rejected(party.left)
    const toText = party.right.text
    if (
      !party.right.isText ||
      toText.trim() === "" ||
      bytesOf(toText) > requestBounds.toBytes ||
      controlCharacter.test(toText)
    )
      return rejected(
        conflict(
          "The to template must render the party as text of 1 to 256 bytes without control characters; it rendered " +
            (party.right.isText ? JSON.stringify(toText.slice(0, 300)) : "a list or an object") +
            ".",
          "unworkable"
        )
      )
    const words = render("message", message)
    if (Either.isLeft(words)) return rejected(words.left)
    if (!words.right.isText || bytesOf(words.right.text) > requestBounds.messageBytes)
      return rejected(
        conflict(
          words.right.isText
            ? `The message renders ${bytesOf(words.right.text)} bytes; a request holds at most ${requestBounds.messageBytes}.`
            : "The message template renders a list or an object; write it as text, with | json for structured values.",
          "unworkable"
        )
      )
    const expiresAt = new Date(run.startedAt + expiresMillis).toISOString()
    const requested: InteractionRequested = {
      delivery: "agent",
      to: toText,
      message_bytes: bytesOf(words.right.text),
      takes_answer: true,
      expires_at: expiresAt
    }
    const record: RequestRecord = {
      to: toText,
      message: words.right.text,
      answer_schema: answerSchema,
      answerer: null,
      reply: null,
      deliver: "agent",
      replies: null,
      expires_at: expiresAt,
      requested_at: now
    }
    return {
      _tag: "Started",
      facts: [
        { type: "interaction_requested", data: requested },
        { type: "run_deferred", data: { record } }
      ],
      alongside:
        run.playbook === undefined
          ? []
          : [
              {
                stream: requestSlotsStream(run.playbook.org, run.playbook.id),
                expected: open.right.slots,
                facts: [{ type: requestSlotTaken, data: { run_id: run.runId } }]
              }
            ]
    } as const
  })
