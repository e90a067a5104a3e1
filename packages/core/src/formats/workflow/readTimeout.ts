import { placeOf, type Reading, readFields } from "./Reading.js"
import { readDuration } from "./readDuration.js"
import type { Scope } from "./Scope.js"
import type { Timeout } from "./TaskCommon.js"
import type { Use } from "./Use.js"

const timeoutPlace = placeOf(["after"], ["after"])

/** Reads a timeout mapping `{ after: <duration> }` at a pointer. */
export const readTimeoutMapping = (
  reading: Reading,
  value: unknown,
  pointer: string,
  scope: Scope,
  name?: string
): Timeout | undefined => {
  const fields = readFields(reading, value, pointer, timeoutPlace)
  if (fields === undefined || fields.after === undefined) return undefined
  const after = readDuration(reading, fields.after, `${pointer}/after`, scope)
  return after === undefined ? undefined : { ...(name === undefined ? {} : { name }), after }
}

/**
 * Reads a `timeout` (workflow-format.md §3.1): `{ after: <duration> }`, or the name of an entry of
 * `use.timeouts`, which must exist (§13) and is resolved here.
 */
export const readTimeout = (
  reading: Reading,
  use: Use,
  value: unknown,
  pointer: string,
  scope: Scope
): Timeout | undefined => {
  if (typeof value !== "string") return readTimeoutMapping(reading, value, pointer, scope)
  const entry = use.find(reading, "timeouts", value, pointer)
  return entry === undefined ? undefined : readTimeoutMapping(reading, entry.value, entry.pointer, scope, entry.name)
}
