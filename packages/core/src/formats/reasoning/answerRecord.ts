import { Either } from "effect"
import { jsonBytes } from "../../domain/utf8Bytes.js"
import { outputAndRecordBound } from "../../runs/runStart.js"
import type { RenderedPrompt } from "./renderPrompt.js"

/** The start of a text that fits in `bytes` UTF-8 bytes as JSON, cut between code points. */
const startOf = (text: string, bytes: number): string => {
  let kept = ""
  let used = 2
  for (const point of text) {
    const size = jsonBytes(point) - 2
    if (used + size > bytes) break
    kept += point
    used += size
  }
  return kept
}

/**
 * The record of a succeeded run beside its output, within their shared 1 MiB (function-formats.md §2.7): the prompt
 * is kept whole when it fits, else the start of each part with `truncated: true`. Left: words for an answer that
 * leaves no room for its record.
 */
export const answerRecord = (
  output: unknown,
  record: Record<string, unknown>,
  prompt: RenderedPrompt
): Either.Either<Record<string, unknown>, string> => {
  const whole = { ...record, prompt: { ...prompt, truncated: false } }
  const bound = outputAndRecordBound
  if (jsonBytes({ output, record: whole }) <= bound) return Either.right(whole)
  const room =
    bound - jsonBytes({ output, record: { ...record, prompt: { instructions: "", message: "", truncated: true } } })
  if (room < 0)
    return Either.left(
      "The model's answer leaves no room for the run's record in 1 MiB; lower max_output_tokens or ask for less."
    )
  const share = Math.floor(room / 2)
  return Either.right({
    ...record,
    prompt: {
      ...(prompt.instructions === undefined ? {} : { instructions: startOf(prompt.instructions, share) }),
      message: startOf(prompt.message, prompt.instructions === undefined ? room : share),
      truncated: true
    }
  })
}
