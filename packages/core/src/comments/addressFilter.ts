import { addressText, type CommentAddress } from "./CommentAddress.js"

/** The text after which, within an address, the addresses under a thing begin (beside its parts). */
const nestedUnder = (target: CommentAddress): ReadonlyArray<string> => {
  switch (target.kind) {
    case "run":
      return ["/events/", "/result/"]
    case "definition":
      return target.version === undefined ? ["/"] : ["/steps/"]
    default:
      return []
  }
}

/** The kinds of thing that take parts, `<address>/parts/<part>`. */
const partTakers: ReadonlyArray<CommentAddress["kind"]> = [
  "playbook",
  "definition",
  "run",
  "org",
  "connection",
  "member",
  "settings"
]

/**
 * Which comment addresses a list keeps (HTTP "Listing comments"): the address alone, or with `under` the address,
 * its parts, and for a run its events and blocks, for a definition at a version its steps, for a definition
 * without its version everything of each version. A part, a step, an event, a block and a request take no parts,
 * so `under` keeps them alone; the comments' addresses are compared in their written form.
 */
export const addressFilter = (target: CommentAddress, under: boolean): ((address: string) => boolean) => {
  const text = addressText(target)
  if (!under) return (address) => address === text
  const takesParts = partTakers.includes(target.kind) && !("part" in target && target.part !== undefined)
  const prefixes = [...(takesParts ? ["/parts/"] : []), ...nestedUnder(target)].map((suffix) => text + suffix)
  return (address) => address === text || prefixes.some((prefix) => address.startsWith(prefix))
}
