import type { SourceIssue } from "../DefinitionFormat.js"
import { describeValue } from "../document/describeValue.js"
import {
  expectedMappingWords,
  type Place,
  pointerSegment,
  requiredKeyWords,
  unknownKeyWords
} from "../document/Place.js"
import type { YamlRead } from "../document/readYaml.js"

/**
 * What the readers of a workflow's parts share: the YAML as read (for positions), the issues found so far, and
 * the deployment's longest run, which bounds written durations (§11).
 */
export interface Reading {
  readonly source: string
  readonly yaml: YamlRead
  readonly issues: Array<SourceIssue>
  readonly maxRunMilliseconds: number
}

/** Records an issue at the value a pointer names. */
export const issueAt = (reading: Reading, pointer: string, message: string): void => {
  reading.issues.push(reading.yaml.issueAt(pointer, message))
}

/** Records an issue at the key of the entry a pointer names. */
export const keyIssueAt = (reading: Reading, pointer: string, message: string): void => {
  reading.issues.push(reading.yaml.keyIssueAt(pointer, message))
}

/** A plain mapping (not a list, not null), or `undefined`. */
export const asRecord = (value: unknown): Readonly<Record<string, unknown>> | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

/**
 * The value at a pointer as a mapping whose keys `place` takes, with its required keys: each unknown key is an
 * issue at the key, each missing one an issue at the mapping. `undefined` (and an issue) when it is no mapping.
 */
export const readFields = (
  reading: Reading,
  value: unknown,
  pointer: string,
  place: Place
): Readonly<Record<string, unknown>> | undefined => {
  const record = asRecord(value)
  if (record === undefined) {
    issueAt(reading, pointer, expectedMappingWords(place, value))
    return undefined
  }
  for (const key of Object.keys(record)) {
    if (!(key in place.keys)) keyIssueAt(reading, `${pointer}/${pointerSegment(key)}`, unknownKeyWords(key, place))
  }
  for (const key of place.required ?? []) {
    if (!(key in record)) issueAt(reading, pointer, requiredKeyWords(key))
  }
  return record
}

/** A place whose keys are all values the reader checks itself. */
export const placeOf = (
  keys: ReadonlyArray<string>,
  required: ReadonlyArray<string> = [],
  refused: Readonly<Record<string, string>> = {}
): Place => ({ keys: Object.fromEntries(keys.map((key) => [key, "value" as const])), required, refused })

/** A text of one or more characters at a pointer, or `undefined` and an issue. */
export const readText = (reading: Reading, value: unknown, pointer: string): string | undefined => {
  if (typeof value === "string" && value.length > 0) return value
  issueAt(reading, pointer, `expected text, found ${describeValue(value)}`)
  return undefined
}
