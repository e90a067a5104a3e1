import type { ModelList } from "./ModelList.js"

/** How many models the summary names before it counts the rest. */
const namedBound = 20

const lastPart = (id: string): string => id.slice(id.lastIndexOf("/") + 1)

/** Joins words as a list in English: `a`, `a and b`, `a, b, and c`. */
const listed = (words: ReadonlyArray<string>): string =>
  words.length <= 1
    ? (words[0] ?? "")
    : words.length === 2
      ? `${words[0]} and ${words[1]}`
      : `${words.slice(0, -1).join(", ")}, and ${words[words.length - 1]}`

/**
 * The plain-language summary of a model list (MCP seed "Model information"): the concrete models named by the
 * provider's name or the last part of the id (a name two providers share gets its provider in brackets, a name one
 * provider repeats gives way to the id's last part), at most 20 then a count, the providers that take any model
 * id, and whether the list is narrowed or partial.
 */
export const modelListWords = (list: ModelList): string => {
  const concrete = list.data.filter((entry) => entry.pattern !== true)
  const named = concrete.map((entry) => ({ entry, name: entry.name ?? lastPart(entry.id) }))
  const owners = new Map<string, Map<string, number>>()
  for (const { entry, name } of named) {
    const byOwner = owners.get(name) ?? new Map<string, number>()
    byOwner.set(entry.owned_by, (byOwner.get(entry.owned_by) ?? 0) + 1)
    owners.set(name, byOwner)
  }
  const words = named.map(({ entry, name }) => {
    const byOwner = owners.get(name)!
    if ((byOwner.get(entry.owned_by) ?? 0) > 1) return lastPart(entry.id)
    return byOwner.size > 1 ? `${name} (${entry.owned_by})` : name
  })
  const providers = [...new Set(concrete.map((entry) => entry.owned_by))]
  const shown = words.slice(0, namedBound)
  const rest = words.length - shown.length
  const sentences: Array<string> = []
  if (concrete.length === 0) sentences.push("This server lists no concrete model.")
  else
    sentences.push(
      `This server can call ${concrete.length} model${concrete.length === 1 ? "" : "s"} through ${listed(providers)}: ${listed(
        rest > 0 ? [...shown, `${rest} more`] : shown
      )}.`
    )
  const any = [...new Set(list.data.filter((entry) => entry.pattern === true).map((entry) => entry.id.slice(0, -2)))]
  if (any.length > 0) sentences.push(`It can also call any ${listed(any)} model.`)
  if (list.narrowed) sentences.push("It lists only the models its operator allows.")
  if (list.catalog_status === "partial")
    sentences.push("The list may be incomplete: a provider could not be asked just now.")
  return sentences.join(" ")
}
