import { Option } from "effect"

/** The value at a JSON pointer (RFC 6901) in a document; none when nothing is there. */
export const valueAt = (document: unknown, pointer: string): Option.Option<unknown> => {
  let at: unknown = document
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~")
    if (Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < at.length) at = at[Number(key)]
    else if (at !== null && typeof at === "object" && !Array.isArray(at) && Object.hasOwn(at, key))
      at = (at as Record<string, unknown>)[key]
    else return Option.none()
  }
  return Option.some(at)
}
