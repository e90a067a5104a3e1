import { Either } from "effect"
import { type RenderStop, renderTemplate, singleOutput } from "../interaction/renderTemplate.js"
import { templateEngine } from "../interaction/templateEngine.js"
import type { ArgumentTemplate } from "./readLookup.js"

/** Why arguments could not be rendered: a render stopped at the template of a pointer (`invalid_input`). */
export interface ArgumentsStop {
  readonly pointer: string
  readonly stop: RenderStop
}

/** The value a template renders as: its one output tag's value with its JSON type, else its text. */
const typedValue = (
  template: ArgumentTemplate,
  scope: Record<string, unknown>,
  pointer: string
): Either.Either<unknown, ArgumentsStop> =>
  Either.flatMap(
    Either.mapLeft(
      renderTemplate(template.text, template.template, scope),
      (stop): ArgumentsStop => ({
        pointer,
        stop
      })
    ),
    ({ text }) => {
      const single = singleOutput.exec(template.text.trim())
      if (single === null) return Either.right(text)
      const value = templateEngine.evalValueSync(single[1]!, scope)
      return Either.right(value === undefined ? null : JSON.parse(JSON.stringify(value)))
    }
  )

/**
 * Renders a call's `with` over a run's scope (function-formats.md §1.5 typed arguments): each string a template;
 * one that is exactly one output tag is sent with its value's JSON type (a number, a list); other values as written.
 */
export const renderArguments = (
  value: unknown,
  templates: ReadonlyMap<string, ArgumentTemplate>,
  scope: Record<string, unknown>,
  pointer = "/call/with"
): Either.Either<unknown, ArgumentsStop> => {
  if (typeof value === "string") {
    const template = templates.get(pointer)
    return template === undefined ? Either.right(value) : typedValue(template, scope, pointer)
  }
  if (Array.isArray(value))
    return Either.all(value.map((item, index) => renderArguments(item, templates, scope, `${pointer}/${index}`)))
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([key, item]) =>
      Either.map(
        renderArguments(item, templates, scope, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`),
        (rendered) => [key, rendered] as const
      )
    )
    return Either.map(Either.all(entries), Object.fromEntries)
  }
  return Either.right(value)
}
