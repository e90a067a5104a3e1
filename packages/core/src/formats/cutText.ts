import { utf8Bytes } from "../domain/utf8Bytes.js"
/**
 * Cuts a text to at most `bytes` UTF-8 bytes, never inside a character, ending it with `ending` when it cut (`…` by
 * default: function-formats.md §4.5), the ending counted in the bytes.
 */
export const cutText = (text: string, bytes = 1_024, ending = "…"): string => {
  if (utf8Bytes(text) <= bytes) return text
  let kept = ""
  let used = utf8Bytes(ending)
  for (const character of text) {
    const size = utf8Bytes(character)
    if (used + size > bytes) break
    kept += character
    used += size
  }
  return `${kept}${ending}`
}
