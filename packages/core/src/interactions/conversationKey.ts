import { createHash } from "node:crypto"
import { Either } from "effect"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import { readReplies } from "../formats/interaction/readReplies.js"
import { renderTemplate } from "../formats/interaction/renderTemplate.js"
import type { DeliveredAs, RequestRecord } from "./interactionFacts.js"

/** The most bytes of a conversation key (function-formats.md §3.9). */
const keyBound = 256

// biome-ignore lint/suspicious/noControlCharactersInRegex: the rule is about control characters
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/

/**
 * The stream a playbook's reads of one conversation are recorded on (`replies_read`, `reading_failed`; §3.5):
 * `playbook/<org>/<playbook>/conversation-calls/<id>`, the id the SHA-256 of the key, so any key names a stream.
 */
export const conversationStream = (org: string, playbook: string, key: string): string =>
  `playbook/${org}/${playbook}/conversation-calls/${createHash("sha256").update(key, "utf8").digest("hex")}`

/**
 * Where a delivered request's replies are read (§3.5): its `replies.conversation` rendered over `to` and where the
 * request landed (`sent`), text of 1 to 256 bytes without control characters. Nothing for a request that reads no
 * replies or landed without identity; words for a key that cannot be one, and the request then takes no reply.
 */
export const repliesIn = (
  record: RequestRecord,
  landed: DeliveredAs | undefined
): { readonly replies_in?: string; readonly detail?: string } => {
  if (record.replies === null || landed === undefined) return {}
  const { replies } = readReplies(record.replies as Record<string, unknown>)
  if (replies === undefined) return {}
  const rendered = renderTemplate(replies.conversation.text, replies.conversation.template, {
    to: record.to,
    sent: landed
  })
  if (Either.isLeft(rendered))
    return { detail: `No reply is read: the conversation key did not render: ${rendered.left.words}.` }
  const key = rendered.right.text
  return key.trim() === "" || utf8Bytes(key) > keyBound || controlCharacter.test(key)
    ? { detail: "No reply is read: the conversation key is not text of 1 to 256 bytes without control characters." }
    : { replies_in: key }
}
