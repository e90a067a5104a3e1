/**
 * The size of a text in UTF-8 bytes, counted without encoding it (a lone surrogate counts as the 3 bytes of the
 * U+FFFD an encoder writes for it).
 */
export const utf8Bytes = (text: string): number => Buffer.byteLength(text, "utf8")

/** The size of a value in UTF-8 bytes of its JSON ("as JSON", workflow-format.md §0); `undefined` counts as `null`. */
export const jsonBytes = (value: unknown): number => utf8Bytes(JSON.stringify(value) ?? "null")
