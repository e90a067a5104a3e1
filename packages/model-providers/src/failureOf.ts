import { ModelCallFailed, type ModelFailureKind } from "@runledger/core"
import type { ProviderResponse } from "./sendRequest.js"

/** The longest provider message kept: its first line, at most 300 characters (function-formats.md §2.8). */
const messageBound = 300

/** The provider's own words about a failure: the `error.message` of its JSON body, else its text, one line. */
export const providerWords = (text: string): string => {
  let words = text
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown }
    const message = typeof body.error === "string" ? body.error : (body.error?.message ?? body.message)
    if (typeof message === "string") words = message
  } catch {
    // not JSON: the text itself
  }
  const line = words.split("\n")[0]?.trim() ?? ""
  return line.length > messageBound ? line.slice(0, messageBound) : line
}

/** The delay a provider asks for, from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export const retryAfterMs = (headers: Readonly<Record<string, string>>): number | undefined => {
  const millis = Number(headers["retry-after-ms"])
  if (headers["retry-after-ms"] !== undefined && Number.isFinite(millis) && millis >= 0) return millis
  const after = headers["retry-after"]
  if (after === undefined) return undefined
  const seconds = Number(after)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(after)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}

/** Whether a refusal is the provider's content policy (a 400 of `content_filter` or `content_policy_violation`). */
const refusesContent = (text: string): boolean => /content_filter|content_policy_violation/.test(text)

/**
 * The failure kind of a provider's non-2xx answer (function-formats.md §2.8): 401/403 credentials, 429 rate, 408,
 * 409 and 5xx (529 included) unavailable, a 400 of its content policy refused content, any other 4xx the
 * definition's.
 */
export const failureOf = (response: ProviderResponse): ModelCallFailed => {
  const { status } = response
  const kind: ModelFailureKind =
    status === 401 || status === 403
      ? "credentials_rejected"
      : status === 429
        ? "rate_limited"
        : status === 408 || status === 409 || status >= 500
          ? "provider_unavailable"
          : status === 400 && refusesContent(response.text)
            ? "content_refused"
            : "definition_invalid"
  const delay = retryAfterMs(response.headers)
  return new ModelCallFailed({
    kind,
    status,
    providerMessage: providerWords(response.text),
    ...(delay === undefined ? {} : { retryAfterMs: delay })
  })
}

/** A 2xx answer whose body cannot be read as the API's answer. */
export const unreadable = (why: string): ModelCallFailed =>
  new ModelCallFailed({ kind: "provider_unavailable", providerMessage: `the provider's answer cannot be read: ${why}` })

/** What a call cost, from the entry's cost header; absent when it names none or the value is not a number. */
export const costOf = (headers: Readonly<Record<string, string>>, costHeader: string | undefined) => {
  if (costHeader === undefined) return {}
  const value = headers[costHeader.toLowerCase()]
  const cost = value === undefined ? Number.NaN : Number(value)
  return Number.isFinite(cost) ? { costUsd: cost } : {}
}
