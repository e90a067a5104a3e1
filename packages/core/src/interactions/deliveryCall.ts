import { Effect, Either, Option } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import type { SentPointers } from "../formats/interaction/readInteraction.js"
import { valueAt } from "../formats/lookup/valueAt.js"
import type { ContentStore } from "../ports/ContentStore.js"
import { type ToolAnswer, ToolServers } from "../ports/ToolServers.js"
import { answerDocument, keptAnswer } from "../tools/answerDocument.js"
import { keepTexts, sha256Of } from "../tools/keepTexts.js"
import type { AttemptEnding } from "./deliveryStep.js"
import type { AttemptResult, DeliveredAs, DeliveryFailure } from "./interactionFacts.js"

/** One attempt to send: its number, the tool, the arguments, the run they go with, where content is kept. */
export interface DeliveryCall {
  readonly number: number
  readonly server: string
  readonly tool: string
  readonly arguments: Record<string, unknown>
  readonly runId: string
  /** When the attempt is cut (ms since the epoch): just before its `lost_at`. */
  readonly cutAt: number
  readonly sent?: SentPointers
  /** The content store's owner of the playbook's calls, when the server's entry keeps content. */
  readonly keepFor?: string
}

/** The most bytes of a sent value, as text (function-formats.md §3.9). */
const sentBound = 256

// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/

/** A text cut to 1 KiB of UTF-8, for the words of a fact. */
const cut = (text: string): string => {
  const bytes = Buffer.from(text, "utf8")
  return bytes.length <= 1_024
    ? text
    : `${bytes
        .subarray(0, 1_021)
        .toString("utf8")
        .replace(/\uFFFD$/, "")}…`
}

const failed = (
  number: number,
  because: DeliveryFailure,
  detail: string,
  more: AttemptResult & { readonly retry_after_ms?: number } = {}
): AttemptEnding => ({ type: "delivery_failed", data: { number, because, detail: cut(detail), ...more } })

/**
 * Where the request landed, read at the `sent` pointers of the tool's answer document (function-formats.md §3.3):
 * each value text or a whole number (kept as text), at most 256 bytes, with no control character. Otherwise the
 * request counts as delivered without identity, with words naming the pointer that read nothing usable.
 */
const deliveredAs = (
  answer: ToolAnswer,
  sent: SentPointers
): { readonly delivered_as: DeliveredAs } | { readonly detail: string } => {
  const document = answerDocument(answer)
  const read = (pointer: string): Either.Either<string, string> => {
    const value = document.found ? valueAt(document.value, pointer) : Option.none()
    if (Option.isNone(value)) return Either.left(`sent reads nothing at ${pointer} of the tool's answer`)
    const text =
      typeof value.value === "string" ? value.value : Number.isInteger(value.value) ? String(value.value) : undefined
    if (text === undefined || text === "" || utf8Bytes(text) > sentBound || controlCharacter.test(text))
      return Either.left(
        `sent reads at ${pointer} a value that is not text or a whole number of 1 to 256 bytes without control characters`
      )
    return Either.right(text)
  }
  const both = Either.all([read(sent.conversation), read(sent.id)])
  return Either.isRight(both)
    ? { delivered_as: { conversation: both.right[0], id: both.right[1] } }
    : { detail: `The request counts as delivered without identity, so no reply can be matched to it: ${both.left}.` }
}

/**
 * Makes one delivery attempt and says how it ended (function-formats.md §3.3, ADR 0192); nothing is recorded
 * here. The server is asked for its tools first: a tool it no longer lists fails the attempt (`tool_not_offered`),
 * as does a server that cannot be used (`server_failure`, with its `retry_after_ms`), a call that timed out or
 * answered too much, or the tool's own error (`tool_error`). A runtime without that server, or a tool that refused
 * the arguments, refuses the delivery (`unworkable`): another attempt would meet the same. The arguments and the
 * answer are kept when the server's entry keeps content.
 */
export const deliveryCall = (call: DeliveryCall): Effect.Effect<AttemptEnding, Rejection, ToolServers | ContentStore> =>
  Effect.gen(function* () {
    const tools = yield* ToolServers
    const { number, server, tool } = call
    const unknown = (): AttemptEnding => ({
      type: "delivery_refused",
      data: {
        number,
        because: "unworkable",
        reason: "tool_server_unknown",
        detail: `This runtime has no tool server ${server}: it was started without it.`
      }
    })
    const listed = yield* Effect.either(tools.list(server))
    if (Either.isLeft(listed))
      return listed.left._tag === "ToolServerUnknown"
        ? unknown()
        : failed(number, "server_failure", listed.left.detail, {
            ...(listed.left.retryAfterMs === undefined ? {} : { retry_after_ms: listed.left.retryAfterMs })
          })
    if (!listed.right.some((candidate) => candidate.name === tool))
      return failed(
        number,
        "tool_not_offered",
        `The tool server ${server} does not list the tool ${tool} now; the request stays open and the next attempt asks again.`
      )
    const result = yield* Effect.either(tools.call({ server, tool, arguments: call.arguments, runId: call.runId }))
    if (Either.isLeft(result)) {
      const failure = result.left
      if (failure._tag === "ToolServerUnknown") return unknown()
      const retry = failure.retryAfterMs === undefined ? {} : { retry_after_ms: failure.retryAfterMs }
      if (failure._tag === "ToolServerFailed") return failed(number, "server_failure", failure.detail, retry)
      const ids = {
        duration_ms: failure.durationMs,
        jsonrpc_id: failure.jsonrpcId,
        ...(failure.serverRequestId === undefined ? {} : { server_request_id: failure.serverRequestId })
      }
      if (failure.because === "arguments_refused")
        return {
          type: "delivery_refused",
          data: {
            number,
            because: "unworkable",
            reason: "arguments_refused",
            detail: cut(`The tool refused the arguments: ${failure.detail}`),
            ...ids
          }
        }
      return failed(number, failure.because, failure.detail, { ...ids, ...retry })
    }
    const answer = result.right
    const resultText = keptAnswer(answer)
    if (call.keepFor !== undefined) yield* keepTexts(call.keepFor, [resultText])
    const shown: AttemptResult = {
      result_bytes: utf8Bytes(resultText),
      ...(call.keepFor === undefined ? {} : { result_sha256: sha256Of(resultText) }),
      duration_ms: answer.durationMs,
      jsonrpc_id: answer.jsonrpcId,
      ...(answer.serverRequestId === undefined ? {} : { server_request_id: answer.serverRequestId })
    }
    if (answer.isError) {
      const words = answer.content.find((block) => block.type === "text" && typeof block.text === "string")
      return failed(
        number,
        "tool_error",
        `The tool answered with an error of its own${words === undefined ? "." : `: ${words.text as string}`}`,
        shown
      )
    }
    return {
      type: "delivery_succeeded",
      data: {
        number,
        content_kept: call.keepFor !== undefined,
        ...shown,
        ...(call.sent === undefined ? {} : deliveredAs(answer, call.sent))
      }
    }
  })
