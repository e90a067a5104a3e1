import { describeValue } from "../document/describeValue.js"
import { asRecord, issueAt, placeOf, type Reading, readFields } from "./Reading.js"
import type { Backoff, RetryPolicy } from "./RetryPolicy.js"
import { readDuration } from "./readDuration.js"
import { readCondition } from "./readTemplate.js"
import type { Scope } from "./Scope.js"
import type { Use } from "./Use.js"

const policyPlace = placeOf(["delay", "backoff", "jitter", "limit", "when", "exceptWhen"])
const backoffs: ReadonlyArray<Backoff> = ["constant", "linear", "exponential"]

const readBackoff = (reading: Reading, value: unknown, pointer: string): Backoff => {
  const record = asRecord(value)
  const keys = Object.keys(record ?? {})
  const [kind] = keys
  if (record === undefined || keys.length !== 1 || !backoffs.includes(kind as Backoff)) {
    issueAt(
      reading,
      pointer,
      `backoff names exactly one of constant: {}, linear: {}, exponential: {}, found ${describeValue(value)}`
    )
    return "constant"
  }
  const options = asRecord(record[kind!])
  if (options === undefined || Object.keys(options).length > 0) {
    issueAt(reading, `${pointer}/${kind}`, `${kind} takes no settings; write ${kind}: {}`)
  }
  return kind as Backoff
}

/** Reads a retry policy mapping (workflow-format.md §9.3); `when`/`exceptWhen` see the catch's variables. */
export const readRetryMapping = (
  reading: Reading,
  value: unknown,
  pointer: string,
  scope: Scope,
  name?: string
): RetryPolicy | undefined => {
  const fields = readFields(reading, value, pointer, policyPlace)
  if (fields === undefined) return undefined
  const duration = (field: unknown, at: string) =>
    field === undefined ? undefined : readDuration(reading, field, at, scope)
  const jitterFields =
    fields.jitter === undefined
      ? undefined
      : readFields(reading, fields.jitter, `${pointer}/jitter`, placeOf(["from", "to"], ["from", "to"]))
  const from = duration(jitterFields?.from, `${pointer}/jitter/from`)
  const to = duration(jitterFields?.to, `${pointer}/jitter/to`)
  const limit =
    fields.limit === undefined
      ? {}
      : (readFields(reading, fields.limit, `${pointer}/limit`, placeOf(["attempt", "duration"])) ?? {})
  const attempt =
    limit.attempt === undefined
      ? {}
      : (readFields(reading, limit.attempt, `${pointer}/limit/attempt`, placeOf(["count", "duration"])) ?? {})
  if (attempt.count !== undefined && !(Number.isInteger(attempt.count) && (attempt.count as number) >= 0)) {
    issueAt(
      reading,
      `${pointer}/limit/attempt/count`,
      `expected a whole number of zero or more, found ${describeValue(attempt.count)}`
    )
  }
  const attemptDuration = duration(attempt.duration, `${pointer}/limit/attempt/duration`)
  const totalDuration = duration(limit.duration, `${pointer}/limit/duration`)
  const when = fields.when === undefined ? undefined : readCondition(reading, fields.when, `${pointer}/when`, scope)
  const exceptWhen =
    fields.exceptWhen === undefined
      ? undefined
      : readCondition(reading, fields.exceptWhen, `${pointer}/exceptWhen`, scope)
  return {
    ...(name === undefined ? {} : { name }),
    delay: duration(fields.delay, `${pointer}/delay`) ?? { _tag: "Fixed", milliseconds: 0 },
    backoff: fields.backoff === undefined ? "constant" : readBackoff(reading, fields.backoff, `${pointer}/backoff`),
    ...(from === undefined || to === undefined ? {} : { jitter: { from, to } }),
    limit: {
      ...(Number.isInteger(attempt.count) ? { attemptCount: attempt.count as number } : {}),
      ...(attemptDuration === undefined ? {} : { attemptDuration }),
      ...(totalDuration === undefined ? {} : { duration: totalDuration })
    },
    ...(when === undefined ? {} : { when }),
    ...(exceptWhen === undefined ? {} : { exceptWhen })
  }
}

/**
 * Reads `catch.retry` (workflow-format.md §9.3): an inline policy, or the name of an entry of `use.retries`,
 * which must exist and is resolved here in the scope of this catch.
 */
export const readRetry = (
  reading: Reading,
  use: Use,
  value: unknown,
  pointer: string,
  scope: Scope
): RetryPolicy | undefined => {
  if (typeof value !== "string") return readRetryMapping(reading, value, pointer, scope)
  const entry = use.find(reading, "retries", value, pointer)
  return entry === undefined ? undefined : readRetryMapping(reading, entry.value, entry.pointer, scope, entry.name)
}
