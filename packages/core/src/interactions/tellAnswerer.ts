import { Clock, Effect, Either } from "effect"
import { RuntimeConfig } from "../config/RuntimeConfig.js"
import type { Fact } from "../domain/Fact.js"
import { jsonBytes } from "../domain/utf8Bytes.js"
import { callArgumentsBound } from "../formats/interaction/argumentsAtSave.js"
import type { DeliverTool } from "../formats/interaction/readInteraction.js"
import { readReplies } from "../formats/interaction/readReplies.js"
import { renderArguments } from "../formats/lookup/renderArguments.js"
import { type DraftFact, runDecider } from "../ledger/decide.js"
import { ToolServers } from "../ports/ToolServers.js"
import { allowsTool, servingServers } from "../tools/servingServers.js"
import type { DeliveryServices } from "./deliverDue.js"
import type {
  DeliveredAs,
  ReplyRefused,
  RequestRecord,
  TellingFailed,
  TellingFailure,
  TellingStarted,
  TellingSucceeded
} from "./interactionFacts.js"
import { tellingsBound } from "./interactionFacts.js"

/** How long the telling tool has to answer, as a read's listing tool has (function-formats.md §3.5). */
const tellingAnswerMillis = 30_000

/** A refused reply of a request that reads replies, and where the request stands, for telling its answerer why. */
export interface RefusedReply {
  /** The conversation's `conversation-calls` stream, where the tellings are recorded. */
  readonly stream: string
  readonly org: string
  readonly playbook: string
  readonly runId: string
  readonly record: RequestRecord
  readonly sent: DeliveredAs | undefined
  readonly refusal: ReplyRefused
}

/**
 * The runtime's explanation (`message` of `tell.with`, ADR 0198): why the reply was not taken, what the answer
 * schema refused, and until when a reply is read.
 */
export const tellingMessage = (refusal: ReplyRefused, expiresAt: string): string => {
  const issues = (refusal.issues ?? []).map((issue) => `${issue.pointer}: ${issue.detail}`)
  return `Your reply was not taken as the answer. ${refusal.detail}${
    issues.length === 0 ? "" : ` (${issues.join("; ")})`
  } Reply again before ${expiresAt}.`
}

/** How many tellings of a run a conversation's stream holds. */
const tellingsOf = (runId: string) => (count: number, fact: Fact) =>
  fact.type === "telling_started" && (fact.data as TellingStarted).run_id === runId ? count + 1 : count

/**
 * Tells the answerer of a request why a reply was refused (function-formats.md §3.5 `tell`, ADR 0198), when the
 * request's `replies` has a `tell` and fewer than 3 tellings were made: `tell.with` (by default `{to, message}`)
 * rendered over `to`, `sent` and `message`, sent through `tell.tool` (by default the delivery's tool) of the
 * delivery's server. Records `telling_started`, then `telling_succeeded` or `telling_failed`, on the conversation's
 * stream; the count is decided on that stream, so of several readers one tells. Never fails: a telling that could
 * not be recorded is left out.
 */
export const tellAnswerer = (refused: RefusedReply): Effect.Effect<void, never, DeliveryServices> =>
  Effect.gen(function* () {
    const tell = readReplies(refused.record.replies as Record<string, unknown>).replies?.tell
    if (tell === undefined) return
    const deliver = refused.record.deliver as DeliverTool
    const server = deliver.server
    const tool = tell.tool ?? deliver.tool
    const by = `playbook:${refused.playbook}`
    const message = tellingMessage(refused.refusal, refused.record.expires_at)
    const rendered =
      tell.with === undefined
        ? Either.right<unknown>({ to: refused.record.to, message })
        : Either.mapLeft(
            renderArguments(
              tell.with.value,
              tell.with.templates,
              { to: refused.record.to, sent: refused.sent ?? {}, message },
              "/replies/tell/with"
            ),
            (stop) => `The template at ${stop.pointer} did not render: ${stop.stop.words}.`
          )
    const bytes = Either.isRight(rendered) ? jsonBytes(rendered.right) : 0
    const entry = servingServers(yield* RuntimeConfig, refused.org, refused.playbook).find(
      (candidate) => candidate.name === server
    )
    const refusedBeforeSending: { because: TellingFailure; detail: string } | undefined = Either.isLeft(rendered)
      ? { because: "arguments_unrenderable", detail: rendered.left }
      : bytes > callArgumentsBound
        ? {
            because: "arguments_unrenderable",
            detail: `The arguments render ${bytes} bytes as JSON; a call holds at most ${callArgumentsBound}.`
          }
        : entry === undefined || !allowsTool(entry, tool)
          ? { because: "tool_not_offered", detail: `The tool ${server}/${tool} is not offered to the playbook now.` }
          : undefined
    const record = (decide: (count: number) => ReadonlyArray<DraftFact>) =>
      runDecider({
        stream: refused.stream,
        initial: 0,
        fold: tellingsOf(refused.runId),
        decide: (count) => Effect.succeed(decide(count)),
        by,
        what: `the conversation of the run ${refused.runId}`
      })
    const draft = (type: string, data: TellingStarted | TellingSucceeded | TellingFailed): DraftFact => ({
      type,
      data,
      metadata: { correlation_id: refused.runId }
    })
    let number = 0
    const started = yield* record((count) => {
      if (count >= tellingsBound) return []
      number = count + 1
      const opened = draft("telling_started", {
        run_id: refused.runId,
        number,
        reply: refused.refusal.reply,
        server,
        tool,
        arguments_bytes: bytes
      })
      return refusedBeforeSending === undefined
        ? [opened]
        : [opened, draft("telling_failed", { run_id: refused.runId, number, ...refusedBeforeSending })]
    })
    if (started.facts.length !== 1) return
    const tools = yield* ToolServers
    const sentAt = yield* Clock.currentTimeMillis
    const called = yield* Effect.either(
      tools.call({
        server,
        tool,
        arguments: Either.getOrElse(rendered, () => ({})) as Record<string, unknown>,
        timeoutMs: tellingAnswerMillis
      })
    )
    const failure = ((): { because: TellingFailure; detail: string } | undefined => {
      if (Either.isRight(called))
        return called.right.isError
          ? { because: "tool_error", detail: "The tool answered with an error of its own." }
          : undefined
      const failed = called.left
      if (failed._tag === "ToolServerUnknown")
        return { because: "tool_not_offered", detail: `This runtime has no tool server ${server}.` }
      return {
        because: failed._tag === "ToolCallFailed" && failed.because === "timed_out" ? "timed_out" : "server_failure",
        detail: failed.detail
      }
    })()
    const durationMs = Math.max(0, (yield* Clock.currentTimeMillis) - sentAt)
    yield* record(() => [
      failure === undefined
        ? draft("telling_succeeded", { run_id: refused.runId, number, duration_ms: durationMs })
        : draft("telling_failed", { run_id: refused.runId, number, ...failure })
    ])
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logWarning(`RunLedger replies: could not tell the answerer of the run ${refused.runId}`, cause)
    )
  )
