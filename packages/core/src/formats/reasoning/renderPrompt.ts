import { Either } from "effect"
import type { Template } from "liquidjs"
import { renderTemplate } from "../interaction/renderTemplate.js"
import { promptEngine, SystemTag, type SystemText, systemSink } from "./promptEngine.js"

/** The most characters each rendered part of a prompt may hold (function-formats.md §1.5). */
export const renderedBound = 200_000

/** A prompt as rendered: the system instructions (absent without a system block) and the user's message. */
export interface RenderedPrompt {
  readonly instructions?: string
  readonly message: string
}

/** Why a prompt could not be rendered, in words for an `invalid_input` at `/input`. */
export interface PromptRefusal {
  readonly words: string
}

/**
 * Renders a prompt over its scope (function-formats.md §2.3): in document order, the system block's text into the
 * instructions and everything outside it into the message, which must not be empty; each part at most 200,000
 * characters. A missing field names the field and the line of the prompt.
 */
export const renderPrompt = (
  prompt: { readonly text: string; readonly template: ReadonlyArray<Template> },
  scope: Record<string, unknown>,
  firstLine: number
): Either.Either<RenderedPrompt, PromptRefusal> => {
  const sink: SystemText = { text: "" }
  const hasSystem = prompt.template.some((part) => part instanceof SystemTag)
  const rendered = renderTemplate(prompt.text, prompt.template, { ...scope, [systemSink]: sink }, promptEngine)
  if (Either.isLeft(rendered)) {
    const stop = rendered.left
    const line = firstLine + stop.line - 1
    return Either.left({
      words:
        stop._tag === "missing"
          ? `The prompt reads ${stop.field} on line ${line} of the document, and the input has no such field.`
          : `The prompt could not be rendered at line ${line} of the document: ${stop.words}.`
    })
  }
  const message = rendered.right.text.trim()
  const instructions = sink.text.trim()
  if (message === "")
    return Either.left({
      words: "The prompt rendered an empty message for this input; the model would be asked nothing."
    })
  for (const [part, text] of [
    ["message", message],
    ["system instructions", instructions]
  ] as const)
    if (text.length > renderedBound)
      return Either.left({
        words: `The prompt's ${part} rendered ${text.length} characters for this input; at most ${renderedBound} are sent.`
      })
  return Either.right({ message, ...(hasSystem ? { instructions } : {}) })
}
