import type { ToolAnswer } from "../ports/ToolServers.js"

/** The most bytes of a call's text and answer document (64 KiB). */
export const shownBound = 65_536

/** The document a call's `read` points into: the structured content, else the first text parsed as JSON, else that text. */
export const answerDocument = (answer: ToolAnswer): { readonly found: boolean; readonly value?: unknown } => {
  if (answer.structuredContent !== undefined) return { found: true, value: answer.structuredContent }
  const text = answer.content.find((block) => block.type === "text" && typeof block.text === "string")
  if (text === undefined) return { found: false }
  try {
    return { found: true, value: JSON.parse(text.text as string) }
  } catch {
    return { found: true, value: text.text }
  }
}

/** A placeholder for content that is not text: `[image content]`, `[resource content]`. */
const placeholder = (block: Record<string, unknown>): string => `[${String(block.type ?? "other")} content]`

/**
 * What a model sees of an answer: its text blocks; its structured content as JSON when it has no text; a
 * placeholder for other content; cut at 64 KiB with a note.
 */
export const answerText = (answer: ToolAnswer): string => {
  const texts = answer.content.map((block) =>
    block.type === "text" && typeof block.text === "string" ? block.text : placeholder(block)
  )
  const hasText = answer.content.some((block) => block.type === "text")
  const whole =
    !hasText && answer.structuredContent !== undefined ? JSON.stringify(answer.structuredContent) : texts.join("\n")
  return cutWithNote(whole)
}

/** A text cut to 64 KiB of UTF-8, with a note saying how many of its bytes were left out. */
export const cutWithNote = (text: string): string => {
  const encoder = new TextEncoder()
  const bytes = encoder.encode(text)
  if (bytes.length <= shownBound) return text
  // 200 bytes left for the note; a character the cut splits is left out whole.
  const kept = new TextDecoder().decode(bytes.slice(0, shownBound - 200)).replace(/\uFFFD$/, "")
  return `${kept}\n[cut: ${bytes.length - encoder.encode(kept).length} more bytes were left out]`
}

/** The JSON a call keeps of an answer: the protocol answer's `content` and `structuredContent`. */
export const keptAnswer = (answer: ToolAnswer): string =>
  JSON.stringify({
    content: answer.content,
    ...(answer.structuredContent === undefined ? {} : { structuredContent: answer.structuredContent }),
    ...(answer.isError ? { isError: true } : {})
  })
