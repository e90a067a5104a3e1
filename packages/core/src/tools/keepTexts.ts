import { createHash } from "node:crypto"
import { Effect } from "effect"
import type { Rejection } from "../domain/Rejection.js"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import { storeToRejection } from "../ledger/unavailable.js"
import { ContentStore } from "../ports/ContentStore.js"

/** The SHA-256 of a text's UTF-8 bytes, in lowercase hex: the key it is kept under. */
export const sha256Of = (text: string): string => createHash("sha256").update(text).digest("hex")

/** A value to keep as its JSON text: the text, the digest it is kept under and its size in bytes. */
export interface KeptJson {
  readonly text: string
  readonly sha256: string
  readonly bytes: number
}

/** A value as the JSON text the content store keeps of it, so that reading the text back gives the value again. */
export const keptJson = (value: unknown): KeptJson => {
  const text = JSON.stringify(value) ?? "null"
  return { text, sha256: sha256Of(text), bytes: utf8Bytes(text) }
}

/** Keeps texts in the content store for an owner (`<org>/<playbook>`), before the facts that name them. */
export const keepTexts = (owner: string, texts: ReadonlyArray<string>): Effect.Effect<void, Rejection, ContentStore> =>
  Effect.flatMap(ContentStore, (content) =>
    storeToRejection(
      Effect.forEach(texts, (text) => content.keep({ owner, sha256: sha256Of(text), text }), { discard: true })
    )
  )
