import type { InputIssue } from "../domain/Rejection.js"
import { pointerSegment } from "../formats/document/Place.js"
import { deeperThan } from "../formats/jsonSchema/valueDepth.js"
import { reservedAttributes, reservedEventTypes, reservedSourcePrefixes } from "../formats/workflow/reservedEvents.js"

/** The CloudEvents attributes an event may give besides extensions. */
const knownAttributes = new Set([
  "specversion",
  "id",
  "source",
  "type",
  "time",
  "subject",
  "datacontenttype",
  "dataschema",
  "data"
])

/** How deep an event's data may nest, so that a run can keep the whole event in a list (seed). */
export const maxDataDepth = 510

/** How an event is checked: published to the playbook, or sent to one run. */
export interface EventRules {
  /** Where the event sits in the input, e.g. `/event`. */
  readonly pointer: string
  /** Whether CloudEvents' optional attributes and extensions may be given (publish_event), or only the five of a sent event. */
  readonly cloudEvent: boolean
}

/** Characters CloudEvents refuses in attributes: controls, lone surrogates, noncharacters. */
const refusedCharacter =
  /[\p{Cc}\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u

const extensionName = /^[a-z0-9]{1,20}$/

/** A media type (RFC 6838 names, RFC 9110 parameters), such as `application/json; charset=utf-8`. */
const mediaType =
  /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}([ \t]*;[ \t]*[A-Za-z0-9!#$%&'*+.^_`|~-]+=("([^"\\]|\\.)*"|[A-Za-z0-9!#$%&'*+.^_`|~-]+))*$/

/** The characters of a URI (RFC 3986), with each `%` starting a percent-encoded octet. */
const uriCharacters = "([A-Za-z0-9\\-._~:/?#\\[\\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})"

/** An absolute URI (RFC 3986): a scheme, a colon, then URI characters. */
const absoluteUri = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*:${uriCharacters}*$`)

/** A URI reference (RFC 3986) that is not empty: URI characters alone, such as `/ledger/eu`. */
const uriReference = new RegExp(`^${uriCharacters}+$`)

/** Text with no character but spaces (Unicode space separators), which an id, type or subject may not be. */
const onlySpaces = /^\p{Zs}*$/u

/** The form of an RFC 3339 date-time: date, `T`, time with an optional fraction, and `Z` or an offset. */
const rfc3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/

/**
 * A time in RFC 3339 as milliseconds since the epoch, or undefined when it is not one. Hours are 00–23, minutes
 * 00–59, the day exists in its month, and a second of 60 is allowed only at 23:59:60 in UTC; such a leap second
 * counts as the first second of the next day (HTTP "Publishing the same event again").
 */
export const rfc3339Instant = (text: string): number | undefined => {
  const match = rfc3339.exec(text)
  if (match === null) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number
  ]
  const sign = match[9] === "-" ? -1 : 1
  const offsetHours = Number(match[10] ?? 0)
  const offsetMinutes = Number(match[11] ?? 0)
  if (hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return undefined
  const date = new Date(0)
  date.setUTCFullYear(year, month - 1, day)
  if (month < 1 || month > 12 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined
  const millis = Math.floor(Number(`0${match[7] ?? ""}`) * 1000)
  const instant =
    date.getTime() +
    ((hour * 60 + minute - sign * (offsetHours * 60 + offsetMinutes)) * 60 + Math.min(second, 59)) * 1000 +
    millis
  if (second < 60) return instant
  const utc = new Date(instant)
  return utc.getUTCHours() === 23 && utc.getUTCMinutes() === 59 && utc.getUTCSeconds() === 59
    ? instant + 1000
    : undefined
}

/**
 * The issues of an event as sent (HTTP "Publishing events", "Sending an event to a run", "What the runtime keeps
 * for itself"): required `source` and `type`, the length of each attribute, the characters CloudEvents refuses, the
 * reserved types, sources and attributes, the time, media type and schema forms, `data` 510 levels deep, and
 * extensions (at most 32; names of 1–20 lowercase letters and digits; string, boolean or 32-bit integer values).
 */
export const eventIssues = (event: Record<string, unknown>, rules: EventRules): ReadonlyArray<InputIssue> => {
  const issues: Array<InputIssue> = []
  const at = (name: string, detail: string) =>
    issues.push({ pointer: `${rules.pointer}/${pointerSegment(name)}`, detail: `${name}: ${detail}` })
  const text = (name: string, max: number, required: boolean, notBlank: boolean) => {
    const value = event[name]
    if (value === undefined) {
      if (required) at(name, "is required.")
      return undefined
    }
    if (typeof value !== "string") return at(name, "must be text.")
    if (value.length > max) return at(name, `must be at most ${max.toLocaleString("en-US")} characters.`)
    if (refusedCharacter.test(value))
      return at(name, "must not contain a control character, a lone surrogate or a noncharacter.")
    if (notBlank && onlySpaces.test(value)) return at(name, "needs a character other than a space.")
    return value
  }
  const type = text("type", 256, true, true)
  if (typeof type === "string" && reservedEventTypes.has(type))
    at("type", `${type} is a type the runtime records itself; choose another type.`)
  text("id", 256, false, true)
  const source = text("source", 1024, rules.cloudEvent, false)
  if (typeof source === "string") {
    if (!uriReference.test(source)) at("source", "must be a URI reference such as /ledger/eu.")
    else if (reservedSourcePrefixes.some((prefix) => source.startsWith(prefix)))
      at(
        "source",
        `sources beginning ${reservedSourcePrefixes.join(", ")} are the runtime's own; choose another source.`
      )
  }
  text("subject", 1024, false, true)
  if (event.data !== undefined && deeperThan(event.data, maxDataDepth))
    at("data", `nests more than ${maxDataDepth} levels deep.`)
  if (!rules.cloudEvent) {
    for (const name of Object.keys(event))
      if (!["type", "id", "source", "subject", "data"].includes(name)) at(name, "is not a field this operation takes.")
    return issues
  }
  if (event.time !== undefined && (typeof event.time !== "string" || rfc3339Instant(event.time) === undefined))
    at("time", "must be an RFC 3339 time with its offset, such as 2026-10-01T09:00:00Z.")
  if (event.specversion !== undefined && event.specversion !== "1.0") at("specversion", "must be 1.0.")
  const contentType = text("datacontenttype", 256, false, false)
  if (typeof contentType === "string" && !mediaType.test(contentType))
    at("datacontenttype", "must be a media type such as application/json.")
  const schema = text("dataschema", 1024, false, false)
  if (typeof schema === "string" && !absoluteUri.test(schema)) at("dataschema", "must be an absolute URI.")
  const extensions = Object.keys(event).filter((name) => !knownAttributes.has(name))
  for (const name of extensions) {
    const value = event[name]
    if (reservedAttributes.has(name)) at(name, `${name} is an attribute the runtime gives its own events.`)
    else if (!extensionName.test(name)) at(name, "an extension's name is 1 to 20 lowercase letters and digits.")
    else if (typeof value === "string") {
      if (refusedCharacter.test(value))
        at(name, "must not contain a control character, a lone surrogate or a noncharacter.")
    } else if (
      typeof value !== "boolean" &&
      !(typeof value === "number" && Number.isInteger(value) && value >= -2_147_483_648 && value <= 2_147_483_647)
    )
      at(name, "an extension's value is a string, a boolean or an integer from -2,147,483,648 to 2,147,483,647.")
  }
  if (extensions.length > 32) issues.push({ pointer: rules.pointer, detail: "event: may have at most 32 extensions." })
  return issues
}
