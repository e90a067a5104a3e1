/**
 * What one mapping of a front matter takes: its keys, each either a nested mapping with keys of its own or a
 * value the type checks itself (`"value"`), the keys it requires, and words for keys refused on purpose.
 * A format describes its whole front matter with one `Place`; the envelope refuses every other key.
 */
export interface Place {
  readonly keys: { readonly [key: string]: Place | "value" }
  readonly required?: ReadonlyArray<string>
  /** Keys other types take but this place refuses, with the reason shown after the usual words. */
  readonly refused?: { readonly [key: string]: string }
}

import { describeValue } from "./describeValue.js"

/** Escapes one key as a JSON pointer segment (RFC 6901). */
export const pointerSegment = (key: string | number): string => String(key).replaceAll("~", "~0").replaceAll("/", "~1")

/** The pointer of a path of keys and indexes. */
export const pointerOf = (path: ReadonlyArray<string | number>): string =>
  path.map((key) => `/${pointerSegment(key)}`).join("")

const keyList = (place: Place) => Object.keys(place.keys).join(", ")

/** The words of a key a place does not take, with the reason when the place refuses it on purpose. */
export const unknownKeyWords = (key: string, place: Place): string => {
  const reason = place.refused?.[key]
  return `unknown key ${JSON.stringify(key)}${reason === undefined ? "" : ` (${reason})`}; this place takes ${keyList(place)}`
}

/** The words of a value found where a place's mapping was expected. */
export const expectedMappingWords = (place: Place, found: unknown): string =>
  `expected a mapping with the keys ${keyList(place)}, found ${describeValue(found)}`

/** The words of a key a place requires and the mapping lacks. */
export const requiredKeyWords = (key: string): string => `the key ${key} is required here`
