import { type Operation, permissionsOf, type Reason, ReasonStatus } from "@runledger/core"
import { takesQuery } from "../routes/routeTemplate.js"

/** A problem an operation can answer: its reason, and the words the document describes it with. */
interface Problem {
  readonly reason: string
  readonly words: string
}

/** The problems every call of an operation may meet in the shared pipeline, before and around its handler. */
const pipelineProblems = (operation: Operation): ReadonlyArray<Problem> => {
  const inPlaybook = operation.scope === "playbook"
  return [
    { reason: "bad_request", words: "bad_request: the request is malformed, such as a field given twice" },
    { reason: "unauthenticated", words: "unauthenticated: the credential is missing or invalid" },
    ...(permissionsOf(operation).length > 0 || inPlaybook
      ? [{ reason: "forbidden", words: "forbidden: the credential may not do that" }]
      : []),
    ...(inPlaybook ? [{ reason: "not_found", words: "not_found: the org has no such playbook" }] : []),
    ...(inPlaybook && operation.kind === "command"
      ? [{ reason: "conflict", words: "conflict with the kind retired: the playbook is retired" }]
      : []),
    ...(takesQuery(operation)
      ? []
      : [
          { reason: "content_too_large", words: "content_too_large: the body is over 1,048,576 bytes" },
          {
            reason: "unsupported_media_type",
            words: "unsupported_media_type: the body is not application/json in UTF-8, or is compressed"
          }
        ]),
    { reason: "invalid_input", words: "invalid_input: the input does not fit, with the errors that point at it" },
    { reason: "internal", words: "internal: something went wrong inside the server" },
    { reason: "unavailable", words: "unavailable: something the server relies on cannot serve now" }
  ]
}

/** Whether a name is a reason the runtime refuses with. */
const isReason = (name: string): name is Reason => Object.hasOwn(ReasonStatus, name)

/**
 * The problems an operation can answer, by status (HTTP "The OpenAPI document": each problem under its status):
 * the shared pipeline's and the operation's own refusals, which are reasons.
 */
export const problemStatuses = (operation: Operation): ReadonlyMap<number, ReadonlyArray<string>> => {
  const byStatus = new Map<number, Array<string>>()
  const pipeline = pipelineProblems(operation)
  const own = operation.refusals
    .filter((reason) => !pipeline.some((problem) => problem.words.startsWith(`${reason}:`)))
    .map((reason) => ({ reason, words: `${reason}: as ${operation.name} refuses` }))
  for (const { reason, words } of [...pipeline, ...own]) {
    if (!isReason(reason)) continue
    const status = ReasonStatus[reason]
    byStatus.set(status, [...(byStatus.get(status) ?? []), words])
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b))
}
