/** Cuts a text to at most `bytes` UTF-8 bytes, ending it with `…` when it cut (function-formats.md §4.5). */
export const cutText = (text: string, bytes = 1_024): string => {
  if (Buffer.byteLength(text, "utf8") <= bytes) return text
  let kept = ""
  let used = 3
  for (const character of text) {
    const size = Buffer.byteLength(character, "utf8")
    if (used + size > bytes) break
    kept += character
    used += size
  }
  return `${kept}…`
}
