import { Effect, Option } from "effect"
import { jsonValueOrText } from "../domain/jsonValueOrText.js"
import type { Rejection } from "../domain/Rejection.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { ContentStore } from "../ports/ContentStore.js"
import type { DerivedEvent } from "./stepEvents.js"

/** The kept text a tool call's event names, by the event's type: the field it is shown as, and its digest's. */
const keptFields: Readonly<Record<string, { readonly field: string; readonly digest: string }>> = {
  tool_call_started: { field: "arguments", digest: "arguments_sha256" },
  tool_call_answered: { field: "result", digest: "result_sha256" }
}

/**
 * An event with the text its facts name by digest (HTTP "Tool-call content"): a tool call's scrubbed arguments on
 * `tool_call_started`, its result on `tool_call_answered`, read from the content store of the playbook (`owner`,
 * `<org>/<playbook>`). A call whose content was not kept (`record_content` off), or a text the store no longer
 * holds, shows its sizes alone. A page then shows each text whole up to 2 KiB and else as its size; `get_event` in
 * full (ADR 0341).
 */
export const withKeptContent = (
  owner: string,
  event: DerivedEvent
): Effect.Effect<DerivedEvent, Rejection, ContentStore> => {
  const kept = keptFields[event.type]
  const data = event.data as Record<string, unknown> | null
  const digest = kept === undefined || data === null || typeof data !== "object" ? undefined : data[kept.digest]
  if (kept === undefined || typeof digest !== "string") return Effect.succeed(event)
  return Effect.flatMap(ContentStore, (content) =>
    storeToRejection(content.read(owner, digest)).pipe(
      Effect.map((text) =>
        Option.isNone(text) ? event : { ...event, data: { ...data, [kept.field]: jsonValueOrText(text.value) } }
      )
    )
  )
}
