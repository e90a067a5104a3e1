import { Either } from "effect"
import type { Liquid, Template } from "liquidjs"
import { templateEngine } from "./templateEngine.js"

/** Why a render stopped: a field the scope lacks (`missing`) or a limit or a refusing filter (`stopped`). */
export interface RenderStop {
  readonly _tag: "missing" | "stopped"
  /** The dotted name a missing field was read as (`input.owner.name`). */
  readonly field?: string
  /** The line within the template. */
  readonly line: number
  readonly words: string
}

/**
 * A template that is exactly one output tag, whose value is sent with its JSON type (§1.5 typed arguments): no
 * other tag opens or closes inside it, so `{{ a }} and {{ b }}` is text.
 */
export const singleOutput = /^\{\{-?\s*((?:(?!\{\{|\}\}|\{%|%\})[\s\S])*?)\s*-?\}\}$/

/** The moment variables of a run: `today` as `YYYY-MM-DD` and `now` as ISO 8601, both in UTC, fixed at its start. */
export const momentsOf = (startedAt: number) => {
  const now = new Date(startedAt).toISOString()
  return { today: now.slice(0, 10), now }
}

const stopOf = (error: unknown): RenderStop => {
  const message = String((error as Error).message ?? error)
  const line = Number(/line:(\d+)/.exec(message)?.[1] ?? 1)
  const field = /^undefined variable: ([^,]+)/.exec(message)?.[1]
  if (field !== undefined)
    return { _tag: "missing", field, line, words: `the template reads ${field}, which is missing` }
  return { _tag: "stopped", line, words: `the render stopped: ${message.split(", line:")[0]}` }
}

/**
 * Renders a checked template over a scope. Right: the text, and for a template that is exactly one output tag,
 * whether the value it yields is text (a list or object is not). Left: why the render stopped.
 */
export const renderTemplate = (
  text: string,
  template: ReadonlyArray<Template>,
  scope: Record<string, unknown>,
  engine: Liquid = templateEngine
): Either.Either<{ readonly text: string; readonly isText: boolean }, RenderStop> => {
  try {
    const rendered = String(engine.renderSync(template as Array<Template>, scope))
    const single = singleOutput.exec(text.trim())
    if (single === null) return Either.right({ text: rendered, isText: true })
    const value: unknown = engine.evalValueSync(single[1]!, scope)
    return Either.right({ text: rendered, isText: typeof value !== "object" || value === null })
  } catch (error) {
    return Either.left(stopOf(error))
  }
}
