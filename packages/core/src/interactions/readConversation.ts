import { Clock, Effect, Either, Option } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import type { Rejection } from "../domain/Rejection.js"
import { jsonBytes, utf8Bytes } from "../domain/utf8Bytes.js"
import { callArgumentsBound } from "../formats/interaction/argumentsAtSave.js"
import type { DeliverTool } from "../formats/interaction/readInteraction.js"
import { readReplies } from "../formats/interaction/readReplies.js"
import type { ReplyRule } from "../formats/interaction/replyRule.js"
import { renderArguments } from "../formats/lookup/renderArguments.js"
import { valueAt } from "../formats/lookup/valueAt.js"
import { type DraftFact, runDecider } from "../ledger/decide.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { Ledger } from "../ports/Ledger.js"
import { ToolServers } from "../ports/ToolServers.js"
import { answerDocument, keptAnswer } from "../tools/answerDocument.js"
import { allowsTool, servingServers } from "../tools/servingServers.js"
import { appendCarryingCaller } from "../workflow/run/appendCarryingCaller.js"
import { answerDecision } from "./answerDecision.js"
import type { DeliveryServices } from "./deliverDue.js"
import { requestMetadata } from "./deliveryStep.js"
import { foldRequest, noRequest, type RequestState } from "./foldRequest.js"
import type { ReadingFailed, ReadingFailure, RepliesRead, ReplyIdentity, ReplyRefused } from "./interactionFacts.js"
import { replyAnswer } from "./replyAnswer.js"
import type { ReplyRequest } from "./replyRequestsProjection.js"
import { runAddressOf } from "./runAddress.js"
import { tellAnswerer } from "./tellAnswerer.js"

/** The bounds of a read (function-formats.md §3.5, §3.9). */
export const readBounds = {
  /** The most bytes of the answer document a read takes. */
  documentBytes: 65_536,
  /** The open requests one read considers. */
  requests: 100,
  /** The refused replies recorded per request. */
  refusals: 10,
  /** How long the listing tool has to answer. */
  answerMillis: 30_000
}

/**
 * How a read of a conversation went, for the host's cadence: replies found (the new cursor), nothing new, a
 * failure (with the server's delay), each with the floor between reads (`replies.wait`); or no request open.
 */
export type ReadOutcome =
  | { readonly _tag: "Found"; readonly cursor: string; readonly waitMillis: number }
  | { readonly _tag: "Nothing"; readonly waitMillis: number }
  | { readonly _tag: "Failed"; readonly waitMillis: number; readonly retryAfterMs?: number }
  | { readonly _tag: "Closed" }

/** One reply as the listing tool gave it: its identity, its words, and the message it answers, when given. */
interface ListedReply {
  readonly id: string
  readonly sender: string
  readonly text: string
  readonly to?: string
}

/** A value at a pointer as text: text itself, or a whole number written out; otherwise nothing. */
const textAt = (item: unknown, pointer: string): string | undefined => {
  const value = valueAt(item, pointer)
  if (Option.isNone(value)) return undefined
  if (typeof value.value === "string") return value.value
  return Number.isInteger(value.value) ? String(value.value) : undefined
}

/** An open request of the conversation, as its run's stream holds it. */
interface OpenRequest {
  readonly stream: string
  readonly state: RequestState
}

/** Whether a request still takes a reply at `now`: waiting, asked, delivered into this conversation, not answered. */
const takesReply = (state: RequestState, conversation: string, now: number): boolean =>
  state.run?.status === "started" &&
  state.requested?.takes_answer === true &&
  state.answer === undefined &&
  state.cancel === undefined &&
  state.delivered?.repliesIn === conversation &&
  now < Date.parse(state.requested.expires_at)

/**
 * Reads one conversation once (function-formats.md §3.5, ADR 0195): the oldest open request's `replies.with`
 * rendered over `to`, `sent`, `conversation` and `since` (the cursor, empty on the first read), the tool of its
 * delivery's server called, at most 64 KiB of answer document read, and each listed reply, in the tool's order,
 * matched to a request (by `to`, else the single open request, else `ambiguous`), ignored unless its sender is the
 * request's answerer and its id is new, and mapped by the recorded rule: a fit records `request_answered` with the
 * reply's identity, answered by the playbook; otherwise `reply_refused`, at most 10 per request, its answerer told
 * why when the request's `replies` has a `tell` (ADR 0198). A read that found replies records `replies_read`, one
 * that failed `reading_failed`, on the conversation's stream; one that found nothing records nothing.
 */
export const readConversation = (
  conversation: string,
  stream: string,
  rows: ReadonlyArray<ReplyRequest>,
  cursor: string | undefined
): Effect.Effect<ReadOutcome, Rejection, DeliveryServices> =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    const now = yield* Clock.currentTimeMillis
    const open: Array<OpenRequest> = []
    for (const row of rows.slice(0, readBounds.requests)) {
      const facts = yield* storeToRejection(ledger.readStream(row.stream))
      const state = facts.reduce(foldRequest, noRequest)
      if (takesReply(state, conversation, now)) open.push({ stream: row.stream, state })
    }
    const oldest = open[0]
    if (oldest === undefined) return { _tag: "Closed" } as const
    const address = runAddressOf(oldest.stream)!
    const playbookBy = `playbook:${address.playbook}`
    const record = oldest.state.record!
    const deliver = record.deliver as DeliverTool
    const { replies } = readReplies(record.replies as Record<string, unknown>)
    if (replies === undefined) return { _tag: "Closed" } as const
    const server = deliver.server
    const tool = replies.tool
    const recordOnConversation = (type: "replies_read" | "reading_failed", data: RepliesRead | ReadingFailed) =>
      runDecider({
        stream,
        initial: undefined,
        fold: () => undefined,
        decide: () => Effect.succeed([{ type, data, metadata: { correlation_id: stream } }]),
        by: playbookBy,
        what: `the conversation ${conversation}`
      })
    const failed = (because: ReadingFailure, detail: string, retryAfterMs?: number) =>
      Effect.as(
        recordOnConversation("reading_failed", {
          conversation,
          server,
          tool,
          because,
          detail,
          ...(retryAfterMs === undefined ? {} : { retry_after_ms: retryAfterMs })
        }),
        {
          _tag: "Failed",
          waitMillis: replies.waitMillis,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs })
        } as const
      )

    const config = yield* RuntimeConfig
    const entry = servingServers(config, address.org, address.playbook).find((candidate) => candidate.name === server)
    if (entry === undefined || !allowsTool(entry, tool))
      return yield* failed("tool_not_offered", `The tool ${server}/${tool} is not offered to the playbook now.`)
    const rendered = renderArguments(
      replies.with.value,
      replies.with.templates,
      { to: record.to, sent: oldest.state.delivered?.as ?? {}, conversation, since: cursor ?? "" },
      "/replies/with"
    )
    if (Either.isLeft(rendered))
      return yield* failed(
        "arguments_unrenderable",
        `The template at ${rendered.left.pointer} did not render: ${rendered.left.stop.words}.`
      )
    const argumentBytes = jsonBytes(rendered.right)
    if (argumentBytes > callArgumentsBound)
      return yield* failed(
        "arguments_unrenderable",
        `The arguments render ${argumentBytes} bytes as JSON; a call holds at most ${callArgumentsBound}.`
      )
    const tools = yield* ToolServers
    const started = yield* Clock.currentTimeMillis
    const called = yield* Effect.either(
      tools.call({
        server,
        tool,
        arguments: rendered.right as Record<string, unknown>,
        timeoutMs: readBounds.answerMillis
      })
    )
    if (Either.isLeft(called)) {
      const failure = called.left
      if (failure._tag === "ToolServerUnknown")
        return yield* failed("tool_not_offered", `This runtime has no tool server ${server}.`)
      const because: ReadingFailure =
        failure._tag === "ToolCallFailed" &&
        failure.because !== "arguments_refused" &&
        failure.because !== "server_failure"
          ? failure.because
          : "server_failure"
      return yield* failed(because, failure.detail, failure.retryAfterMs)
    }
    const answer = called.right
    if (answer.isError) return yield* failed("tool_error", "The tool answered with an error of its own.")
    if (utf8Bytes(keptAnswer(answer)) > readBounds.documentBytes)
      return yield* failed("too_large", `The tool answered more than ${readBounds.documentBytes} bytes.`)
    const document = answerDocument(answer)
    const list = document.found ? valueAt(document.value, replies.read.list) : Option.none()
    if (Option.isNone(list) || !Array.isArray(list.value))
      return yield* failed("unreadable", `The tool's answer holds no list at ${replies.read.list}.`)
    const listed: Array<ListedReply> = []
    for (const item of list.value) {
      const id = textAt(item, replies.read.each.id)
      const sender = textAt(item, replies.read.each.sender)
      if (id === undefined || sender === undefined) continue
      const to = replies.read.each.to === undefined ? undefined : textAt(item, replies.read.each.to)
      listed.push({ id, sender, text: textAt(item, replies.read.each.text) ?? "", ...(to === undefined ? {} : { to }) })
    }
    if (listed.length === 0) return { _tag: "Nothing", waitMillis: replies.waitMillis } as const
    const newest = replies.read.order === "oldest_first" ? listed[listed.length - 1]! : listed[0]!
    if (newest.id === cursor) return { _tag: "Nothing", waitMillis: replies.waitMillis } as const

    const answered: Array<string> = []
    let refused = 0
    const inOrder = replies.read.order === "oldest_first" ? listed : [...listed].reverse()
    for (const reply of inOrder) {
      const byTo =
        reply.to === undefined ? undefined : open.find((request) => request.state.delivered?.as?.id === reply.to)
      const matched = byTo !== undefined ? [byTo] : open
      const ambiguous = byTo === undefined && open.length > 1
      for (const request of matched) {
        const state = request.state
        if (state.record?.answerer !== reply.sender || answered.includes(state.run!.run_id)) continue
        const identity: ReplyIdentity = { id: reply.id, sender: reply.sender, conversation }
        const outcome = ambiguous
          ? ({
              _tag: "Refused",
              because: "ambiguous",
              detail: "The reply names no message it answers, and more than one request of the conversation is open."
            } as const)
          : replyAnswer(state.record.reply as ReplyRule | null, reply.text, state.record.answer_schema)
        const decided = yield* Effect.either(
          runDecider({
            stream: request.stream,
            initial: noRequest,
            fold: foldRequest,
            decide: (current): Effect.Effect<ReadonlyArray<DraftFact>, Rejection> => {
              const taken =
                (current.answer?.data as { reply?: ReplyIdentity } | undefined)?.reply?.id === reply.id ||
                (current.refusedReplies ?? []).includes(reply.id)
              const stillOpen = takesReply(current, conversation, now)
              if (taken || !stillOpen) return Effect.succeed([])
              if (outcome._tag === "Answer")
                return answerDecision(current, {
                  runId: current.run!.run_id,
                  answer: outcome.answer,
                  answeredBy: { id: playbookBy, name: address.playbook },
                  reply: identity,
                  now,
                  endedBy: playbookBy
                })
              if ((current.refusedReplies ?? []).length >= readBounds.refusals) return Effect.succeed([])
              const data: ReplyRefused = {
                reply: identity,
                because: outcome.because,
                detail: outcome.detail,
                ...(outcome.issues === undefined ? {} : { issues: outcome.issues })
              }
              return Effect.succeed([
                {
                  type: "reply_refused",
                  data,
                  metadata: requestMetadata(current, current.requestFact!.id, now)
                }
              ])
            },
            by: playbookBy,
            what: `the run ${state.run!.run_id}`,
            append: appendCarryingCaller
          })
        )
        if (Either.isLeft(decided)) continue
        for (const fact of decided.right.facts)
          if (fact.type === "request_answered") answered.push(state.run!.run_id)
          else if (fact.type === "reply_refused") {
            refused++
            yield* tellAnswerer({
              stream,
              org: address.org,
              playbook: address.playbook,
              runId: state.run!.run_id,
              record: state.record,
              sent: state.delivered?.as,
              refusal: fact.data as ReplyRefused
            })
          }
      }
    }
    yield* recordOnConversation("replies_read", {
      conversation,
      server,
      tool,
      replies: listed.length,
      answered,
      refused,
      cursor: newest.id,
      duration_ms: Math.max(0, (yield* Clock.currentTimeMillis) - started)
    })
    return { _tag: "Found", cursor: newest.id, waitMillis: replies.waitMillis } as const
  })
