import { Effect, Either, Option } from "effect"
import type { RuntimeSettings } from "../../config/RuntimeConfig.js"
import { conflict, invalidInput, type Rejection, reject } from "../../domain/Rejection.js"
import { utf8Bytes } from "../../domain/utf8Bytes.js"
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
import { allowsTool, servingServers } from "../../tools/servingServers.js"
import { toolNotOffered } from "../../tools/toolRefusals.js"
import type { FormatEnding, FormatRun } from "../DefinitionFormat.js"
import { callArgumentsBound } from "./argumentsAtSave.js"
import { deliveryArguments, howToAnswer } from "./deliveryArguments.js"
import { inputIssues } from "./inputIssues.js"
import { type DeliverTool, readInteraction } from "./readInteraction.js"
import { momentsOf, renderTemplate } from "./renderTemplate.js"

/** Bounds of a rendered request (function-formats.md §3.9). */
export const requestBounds = { toBytes: 256, messageBytes: 8_192 }

const rejected = (rejection: Rejection): FormatEnding => ({ _tag: "Rejected", rejection })

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

/** A missing field or a stopped render, as `invalid_input` at the field the input lacks (else `/input`). */
const renderRefusal = (what: string, line: number, words: string, field?: string) =>
  field !== undefined
    ? invalidInput([
        {
          pointer: field.startsWith("input.") ? `/${field.replaceAll(".", "/")}` : "/input",
          detail: `The ${what} template, at its line ${line}, reads ${field}, which the input does not have.`
        }
      ])
    : invalidInput([{ pointer: "/input", detail: `The ${what} template, at its line ${line}: ${words}.` }])

/**
 * The server of a delivery, when it serves the playbook and allows the tool (function-formats.md §3.3: checked at
 * the run's start, nothing sent); otherwise `unavailable`, `tool_not_offered`.
 */
const offeredDelivery = (run: FormatRun, settings: RuntimeSettings, deliver: DeliverTool): Rejection | undefined => {
  const entry = servingServers(settings, run.playbook?.org ?? "", run.playbook?.id ?? "").find(
    (candidate) => candidate.name === deliver.server
  )
  if (entry === undefined)
    return toolNotOffered("tool_server_not_configured", deliver.server, undefined, run.playbook?.id)
  return allowsTool(entry, deliver.tool) ? undefined : toolNotOffered("tool_not_allowed", deliver.server, deliver.tool)
}

/**
 * Carries out an interaction run (function-formats.md §3.7, §3.8): the input schema; for a delivery through a
 * tool, its server and tool offered to the playbook; the cap on the playbook's open requests; `to`, `from` and the
 * message rendered over input, today and now at the run's start, and a delivery's arguments rendered once to
 * refuse what could never be sent; and, when all fit, the request recorded as `interaction_requested` and
 * `run_deferred` with a `Started` ending, and a slot of the playbook claimed at the version the count was read at
 * (ADR 0190). The run waits without holding memory: the host ends it, and the delivery host sends a request that
 * goes through a tool (ADR 0192). A missing field or a stopped render is `invalid_input`; a party that is not
 * text, empty, too long or holds a control character, a message over 8 KiB, or arguments over 16 KiB, is
 * `unworkable`.
 */
export const runInteraction = (run: FormatRun, settings: RuntimeSettings): Effect.Effect<FormatEnding> =>
  Effect.gen(function* () {
    const read = readInteraction(run.source)
    if (Either.isLeft(read)) return rejected(reject("internal", "The saved document of this version no longer reads."))
    const { document, to, from, message, expiresMillis, deliver, answerSchema, replies, replyRule } = read.right
    if (deliver === undefined || to === undefined || message === undefined || expiresMillis === undefined)
      return rejected(reject("internal", "The saved document of this version asks nobody: it calls a tool."))
    const issues = inputIssues(document.inputSchema, run.input)
    if (issues.length > 0) return rejected(invalidInput(issues, "input_schema"))
    const notOffered = deliver === "agent" ? undefined : offeredDelivery(run, settings, deliver)
    if (notOffered !== undefined) return rejected(notOffered)
    const interactionSettings = yield* InteractionSettings
    const open = yield* Effect.either(openRequests(run))
    if (Either.isLeft(open))
      return rejected(
        reject("unavailable", "The playbook's open requests cannot be counted now; send the run again.", {
          retryAfter: 1
        })
      )
    if (open.right.open >= interactionSettings.openRequestCap)
      return rejected(
        reject(
          "unavailable",
          `The playbook already holds ${open.right.open} open requests, as many as this runtime allows (${interactionSettings.openRequestCap}); answer or cancel some, then run it again.`,
          { kind: "requests_full", retryAfter: 60 }
        )
      )
    const { today, now } = momentsOf(run.startedAt)
    const scope = { input: run.input, today, now }
    const render = (what: string, template: NonNullable<typeof to>) =>
      Either.mapLeft(renderTemplate(template.text, template.template, scope), (stop) =>
        renderRefusal(what, stop.line, stop.words, stop._tag === "missing" ? stop.field : undefined)
      )
    const party = (what: "to" | "from", template: NonNullable<typeof to>) =>
      Either.flatMap(render(what, template), ({ text, isText }) =>
        !isText || text.trim() === "" || utf8Bytes(text) > requestBounds.toBytes || controlCharacter.test(text)
          ? Either.left(
              conflict(
                `The ${what} template must render the party as text of 1 to 256 bytes without control characters; it rendered ` +
                  (isText ? JSON.stringify(text.slice(0, 300)) : "a list or an object") +
                  ".",
                "unworkable"
              )
            )
          : Either.right(text)
      )
    const toText = party("to", to)
    if (Either.isLeft(toText)) return rejected(toText.left)
    const answerer =
      from === undefined ? Either.right(replies === undefined ? undefined : toText.right) : party("from", from)
    if (Either.isLeft(answerer)) return rejected(answerer.left)
    const words = render("message", message)
    if (Either.isLeft(words)) return rejected(words.left)
    if (!words.right.isText || utf8Bytes(words.right.text) > requestBounds.messageBytes)
      return rejected(
        conflict(
          words.right.isText
            ? `The message renders ${utf8Bytes(words.right.text)} bytes; a request holds at most ${requestBounds.messageBytes}.`
            : "The message template renders a list or an object; write it as text, with | json for structured values.",
          "unworkable"
        )
      )
    const expiresAt = new Date(run.startedAt + expiresMillis).toISOString()
    const takesAnswer = answerSchema !== undefined
    if (deliver !== "agent") {
      const sent = deliveryArguments(deliver, {
        input: run.input,
        today,
        now,
        to: toText.right,
        message: words.right.text,
        run_id: run.runId,
        function: run.name ?? "",
        expires_at: expiresAt,
        answer_schema: answerSchema ?? null,
        how_to_answer: howToAnswer({
          ...(settings.publicUrl === undefined ? {} : { publicUrl: settings.publicUrl }),
          org: run.playbook?.org ?? "",
          playbook: run.playbook?.id ?? "",
          runId: run.runId,
          expiresAt,
          takesAnswer
        })
      })
      if (Either.isLeft(sent))
        return rejected(
          sent.left._tag === "TooLarge"
            ? conflict(
                `The delivery's arguments render ${sent.left.bytes} bytes as JSON; a call holds at most ${callArgumentsBound}.`,
                "unworkable"
              )
            : renderRefusal(`${sent.left.pointer}`, sent.left.line, sent.left.words, sent.left.field)
        )
    }
    const requested: InteractionRequested = {
      delivery: deliver === "agent" ? "agent" : { server: deliver.server, tool: deliver.tool },
      to: toText.right,
      ...(answerer.right === undefined ? {} : { answerer: answerer.right }),
      message_bytes: utf8Bytes(words.right.text),
      takes_answer: takesAnswer,
      expires_at: expiresAt
    }
    const record: RequestRecord = {
      to: toText.right,
      message: words.right.text,
      answer_schema: answerSchema ?? null,
      answerer: answerer.right ?? null,
      reply: replyRule,
      deliver,
      replies: replies?.written ?? null,
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
