import { type DefinitionType, definitionTypes } from "../definitions/DefinitionType.js"

/**
 * What a comment is about, read from its address (HTTP "Comments"): a thing of a playbook or of the organization.
 * `part` is the `/parts/<part>` a thing that takes parts may end with.
 */
export type CommentAddress =
  | { readonly kind: "playbook"; readonly playbook: string; readonly part?: string }
  | {
      readonly kind: "definition"
      readonly playbook: string
      readonly type: DefinitionType
      readonly name: string
      /** Absent for a definition without its version, which only `list_comments` with `under` takes. */
      readonly version?: number
      readonly part?: string
    }
  | {
      readonly kind: "step"
      readonly playbook: string
      readonly name: string
      readonly version: number
      readonly step: string
    }
  | { readonly kind: "run"; readonly playbook: string; readonly run: string; readonly part?: string }
  | { readonly kind: "event"; readonly playbook: string; readonly run: string; readonly event: string }
  | { readonly kind: "block"; readonly playbook: string; readonly run: string; readonly block: number }
  | { readonly kind: "request"; readonly playbook: string; readonly run: string }
  | { readonly kind: "org"; readonly part?: string }
  | { readonly kind: "connection"; readonly connection: string; readonly part?: string }
  | { readonly kind: "member"; readonly member: string; readonly part?: string }
  | { readonly kind: "settings"; readonly page: string; readonly part?: string }

/** Whether an address is of a thing of the organization rather than of a playbook. */
export const isOrgAddress = (
  address: CommentAddress
): address is Extract<CommentAddress, { kind: "org" | "connection" | "member" | "settings" }> =>
  address.kind === "org" || address.kind === "connection" || address.kind === "member" || address.kind === "settings"

const playbookId = /^[a-z][a-z0-9-]{2,47}$/
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const stepEventId = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([1-9][0-9]{0,8})$/i
const counting = /^[1-9][0-9]{0,8}$/
const index = /^(0|[1-9][0-9]{0,8})$/
const settingsPage = /^[a-z][a-z0-9-]{0,63}$/
/** One segment a person names freely (a part, a member, a task): URL path characters and letters of any script. */
const freeSegment = /^[\p{L}\p{N}\p{M}._~:@!$&'()*+,;=-]+$/u

const isType = (segment: string): segment is DefinitionType =>
  (definitionTypes as ReadonlyArray<string>).includes(segment)

/** The thing, then an optional `/parts/<part>`: the rest after the thing's own segments. */
const withPart = <A extends object>(thing: A, rest: ReadonlyArray<string>): A | undefined =>
  rest.length === 0
    ? thing
    : rest.length === 2 && rest[0] === "parts" && freeSegment.test(rest[1])
      ? { ...thing, part: rest[1] }
      : undefined

/**
 * A step reference without its leading `/`: `do/<index>/<name>`, then any nested task's segments. A step takes no
 * parts, so a reference ending in `parts/<part>` is none.
 */
const stepOf = (segments: ReadonlyArray<string>): string | undefined =>
  segments.length >= 3 &&
  segments[0] === "do" &&
  index.test(segments[1]) &&
  segments.slice(2).every((segment) => freeSegment.test(segment)) &&
  segments[segments.length - 2] !== "parts"
    ? segments.join("/")
    : undefined

/** The things of one playbook, from the segments after `<playbook>/`. */
const playbookThing = (playbook: string, rest: ReadonlyArray<string>): CommentAddress | undefined => {
  const [head, ...tail] = rest
  if (rest.length === 1 && uuid.test(head)) return { kind: "request", playbook, run: head.toLowerCase() }
  if (head === "runs" && tail.length >= 1 && uuid.test(tail[0])) {
    const run = tail[0].toLowerCase()
    const [what, which, ...more] = tail.slice(1)
    if (more.length === 0 && what === "events" && which !== undefined && (uuid.test(which) || stepEventId.test(which)))
      return { kind: "event", playbook, run, event: which.toLowerCase() }
    if (more.length === 0 && what === "result" && which !== undefined && counting.test(which))
      return { kind: "block", playbook, run, block: Number(which) }
    return withPart({ kind: "run", playbook, run } as const, tail.slice(1))
  }
  if (head === "definitions" && tail.length >= 2 && isType(tail[0]) && playbookId.test(tail[1])) {
    const [type, name, version, ...more] = tail
    const definition = { kind: "definition", playbook, type, name } as const
    if (version === undefined) return definition
    if (!counting.test(version)) return undefined
    if (more[0] === "steps" && type === "workflow") {
      const step = stepOf(more.slice(1))
      return step === undefined ? undefined : { kind: "step", playbook, name, version: Number(version), step }
    }
    return withPart({ ...definition, version: Number(version) }, more)
  }
  return undefined
}

/** The things of the organization, from the segments after `org`. */
const orgThing = (rest: ReadonlyArray<string>): CommentAddress | undefined => {
  const [collection, id, ...more] = rest
  if (collection === undefined || collection === "parts") return withPart({ kind: "org" } as const, rest)
  if (id === undefined) return undefined
  if (collection === "connections" && uuid.test(id))
    return withPart({ kind: "connection", connection: id.toLowerCase() } as const, more)
  if (collection === "members" && freeSegment.test(id)) return withPart({ kind: "member", member: id } as const, more)
  if (collection === "settings" && settingsPage.test(id)) return withPart({ kind: "settings", page: id } as const, more)
  return undefined
}

/**
 * Every reading of an address text in the forms a comment takes, each with its UUIDs in lower case. A text can
 * have two readings only where a playbook's id collides with a word of the forms (a playbook named `playbooks`
 * or `org`); the route's scope picks the one that belongs to it.
 */
export const readAddress = (text: string): ReadonlyArray<CommentAddress> => {
  const segments = text.split("/")
  if (segments.some((segment) => segment === "")) return []
  const [first, ...rest] = segments
  const readings: Array<CommentAddress | undefined> = []
  if (first === "org") readings.push(orgThing(rest))
  if (first === "playbooks" && rest.length >= 1 && playbookId.test(rest[0]))
    readings.push(withPart({ kind: "playbook", playbook: rest[0] } as const, rest.slice(1)))
  if (playbookId.test(first)) readings.push(playbookThing(first, rest))
  return readings.filter((reading): reading is CommentAddress => reading !== undefined)
}

/** The address's text in its one written form: what a comment keeps and what `under` compares. */
export const addressText = (address: CommentAddress): string => {
  const part = "part" in address && address.part !== undefined ? `/parts/${address.part}` : ""
  switch (address.kind) {
    case "playbook":
      return `playbooks/${address.playbook}${part}`
    case "definition":
      return `${address.playbook}/definitions/${address.type}/${address.name}${address.version === undefined ? "" : `/${address.version}`}${part}`
    case "step":
      return `${address.playbook}/definitions/workflow/${address.name}/${address.version}/steps/${address.step}`
    case "run":
      return `${address.playbook}/runs/${address.run}${part}`
    case "event":
      return `${address.playbook}/runs/${address.run}/events/${address.event}`
    case "block":
      return `${address.playbook}/runs/${address.run}/result/${address.block}`
    case "request":
      return `${address.playbook}/${address.run}`
    case "org":
      return `org${part}`
    case "connection":
      return `org/connections/${address.connection}${part}`
    case "member":
      return `org/members/${address.member}${part}`
    case "settings":
      return `org/settings/${address.page}${part}`
  }
}
