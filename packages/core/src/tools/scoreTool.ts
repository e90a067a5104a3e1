import type { ListedTool } from "../ports/ToolServers.js"

/** The words of a text, split at spaces and punctuation, at `_`, `.` and `-`, and at case changes, in lower case. */
export const wordsOf = (text: string): ReadonlyArray<string> =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase())

/** The names of a tool's arguments: the properties of its input schema. */
const argumentNames = (tool: ListedTool): ReadonlyArray<string> => {
  const properties = (tool.inputSchema as { properties?: unknown }).properties
  return properties !== null && typeof properties === "object" ? Object.keys(properties) : []
}

/**
 * A tool's score for the words of a search (HTTP "Searching the tools"): each part of each word scores 3 when it is
 * a word of the tool's name, 2 of one of its arguments' names, 1 of its description, in any letter case.
 */
export const scoreTool = (tool: ListedTool, terms: ReadonlyArray<string>): number => {
  const name = new Set(wordsOf(tool.name))
  const args = new Set(argumentNames(tool).flatMap(wordsOf))
  const description = new Set(wordsOf(tool.description))
  let score = 0
  for (const part of terms.flatMap(wordsOf)) {
    if (name.has(part)) score += 3
    if (args.has(part)) score += 2
    if (description.has(part)) score += 1
  }
  return score
}

/** The first sentence of a description, cut at 300 characters. */
export const summaryOf = (description: string): string => {
  const sentence = /^[\s\S]*?[.!?](?=\s|$)/.exec(description.trim())?.[0] ?? description.trim()
  return [...sentence].length <= 300 ? sentence : `${[...sentence].slice(0, 299).join("")}…`
}
