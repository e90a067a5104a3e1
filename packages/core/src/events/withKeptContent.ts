import { Effect, Option } from "effect"
import { jsonValueOrText } from "../domain/jsonValueOrText.js"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { ContentStore } from "../ports/ContentStore.js"
import type { DerivedEvent } from "./stepEvents.js"

/**
 * The kept texts an event names, by the event's type: the field each is shown as, and its digest's. A tool call's
 * (ADR 0341) and a model call's (decision F2, ADR 0345).
 */
const keptFields: Readonly<Record<string, ReadonlyArray<{ readonly field: string; readonly digest: string }>>> = {
  tool_call_started: [{ field: "arguments", digest: "arguments_sha256" }],
  tool_call_answered: [{ field: "result", digest: "result_sha256" }],
  model_call_started: [{ field: "messages", digest: "messages_sha256" }],
  model_call_answered: [
    { field: "response", digest: "response_sha256" },
    { field: "tool_calls", digest: "tool_calls_sha256" }
  ]
}

/**
 * An event with the texts its facts name by digest (HTTP "Tool-call content", decision F2): a tool call's scrubbed
 * arguments on `tool_call_started` and its result on `tool_call_answered`; a model call's messages on
 * `model_call_started`, its response and tool calls on `model_call_answered`; each read from the content store of
 * the playbook (`owner`, `<org>/<playbook>`). A text not kept (`record_content` off), or one the store no longer
 * holds, shows its size alone. A page then shows each text whole up to 2 KiB and else as its size; `get_event` in
 * full (ADR 0341).
 */
export const withKeptContent = (
  owner: string,
  event: DerivedEvent
): Effect.Effect<DerivedEvent, Rejection, ContentStore> => {
  const data = event.data as Record<string, unknown> | null
  if (data === null || typeof data !== "object") return Effect.succeed(event)
  const named = (keptFields[event.type] ?? []).flatMap(({ field, digest }) =>
    typeof data[digest] === "string" ? [{ field, digest: data[digest] as string }] : []
  )
  if (named.length === 0) return Effect.succeed(event)
  return Effect.flatMap(ContentStore, (content) =>
    Effect.reduce(named, data, (shown, { field, digest }) =>
      storeToRejection(content.read(owner, digest)).pipe(
        Effect.map((text) => (Option.isNone(text) ? shown : { ...shown, [field]: jsonValueOrText(text.value) }))
      )
    ).pipe(Effect.map((shown) => (shown === data ? event : { ...event, data: shown })))
  )
}
