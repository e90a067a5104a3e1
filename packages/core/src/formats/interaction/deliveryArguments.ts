import { Either } from "effect"
import { jsonBytes } from "../../domain/utf8Bytes.js"
import { renderArguments } from "../lookup/renderArguments.js"
import { callArgumentsBound } from "./argumentsAtSave.js"
import { argumentTemplates } from "./argumentTemplates.js"
import { type DeliverTool, deliverVariables } from "./readInteraction.js"

/**
 * What a delivery's arguments are rendered over (function-formats.md §3.3): the run's input, the request's moment
 * (`today`, `now`: every attempt renders alike), the request as asked, and how to answer it (ADR 0192).
 */
export interface DeliveryScope {
  readonly input: unknown
  readonly today: string
  readonly now: string
  readonly to: string
  readonly message: string
  readonly run_id: string
  readonly function: string
  readonly expires_at: string
  /** The answer schema; null for a notification. */
  readonly answer_schema: unknown
  readonly how_to_answer: string
}

/** Why a delivery's arguments could not be made: a render stopped at a template, or they hold too many bytes. */
export type ArgumentsRefusal =
  | {
      readonly _tag: "Stopped"
      /** Where the template sits, under `/deliver/with`. */
      readonly pointer: string
      /** The dotted name of a field the scope lacks (`input.owner`). */
      readonly field?: string
      /** The line within the template. */
      readonly line: number
      readonly words: string
    }
  | { readonly _tag: "TooLarge"; readonly bytes: number }

/** Where a request is answered, and until when: the words of `how_to_answer` (ADR 0192). */
export interface AnswerPlace {
  readonly publicUrl?: string
  readonly org: string
  readonly playbook: string
  readonly runId: string
  readonly expiresAt: string
  readonly takesAnswer: boolean
}

/** How the party answers a request, in words a tool can pass on; a notification takes no answer (ADR 0192). */
export const howToAnswer = (place: AnswerPlace): string =>
  place.takesAnswer
    ? `Answer before ${place.expiresAt} with answer_interaction: POST ${place.publicUrl ?? ""}/v1/orgs/${place.org}/playbooks/${place.playbook}/runs/${place.runId}/answer with the JSON body {"answer": …}, the answer matching answer_schema.`
    : "This is a notification: it takes no answer."

/** The arguments of a delivery that names no `with`: the request as asked, and for a question how to answer it. */
const defaultArguments = (scope: DeliveryScope): Record<string, unknown> => ({
  to: scope.to,
  message: scope.message,
  run_id: scope.run_id,
  function: scope.function,
  expires_at: scope.expires_at,
  ...(scope.answer_schema === null ? {} : { answer_schema: scope.answer_schema, how_to_answer: scope.how_to_answer })
})

/**
 * The arguments a delivery sends (function-formats.md §1.5, §3.3): `deliver.with` rendered as typed arguments
 * over the scope, or the default arguments when it names none; at most 16 KiB as JSON.
 */
export const deliveryArguments = (
  deliver: DeliverTool,
  scope: DeliveryScope
): Either.Either<Record<string, unknown>, ArgumentsRefusal> => {
  const rendered =
    deliver.with === undefined
      ? Either.right(defaultArguments(scope))
      : Either.mapLeft(
          renderArguments(
            deliver.with,
            argumentTemplates(deliver.with, "/deliver/with", deliverVariables).templates,
            { ...scope },
            "/deliver/with"
          ),
          ({ pointer, stop }): ArgumentsRefusal => ({
            _tag: "Stopped",
            pointer,
            ...(stop.field === undefined ? {} : { field: stop.field }),
            line: stop.line,
            words: stop.words
          })
        )
  return Either.flatMap(rendered, (value) => {
    const bytes = jsonBytes(value)
    return bytes > callArgumentsBound
      ? Either.left({ _tag: "TooLarge", bytes } as const)
      : Either.right(value as Record<string, unknown>)
  })
}
