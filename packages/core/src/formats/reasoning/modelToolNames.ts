import { sha256Of } from "../../tools/keepTexts.js"
import type { ToolReference } from "./toolReferences.js"

/** The longest model-facing tool name. */
const nameBound = 64

/**
 * The model-facing names of tools (function-formats.md §2.6): `mcp__<server>__<tool>` with every character outside
 * `[A-Za-z0-9_]` replaced by `_`; a name over 64 characters, or colliding after the replacement, ends in an
 * 8-character hash of the tool's reference; a collision left after that takes a numeric suffix. In the tools' order.
 */
export const modelToolNames = (tools: ReadonlyArray<ToolReference>): Array<string> => {
  const bases = tools.map(({ server, tool }) => `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, "_"))
  const counts = new Map<string, number>()
  for (const base of bases) counts.set(base, (counts.get(base) ?? 0) + 1)
  const hashed = bases.map((base, index) =>
    base.length > nameBound || (counts.get(base) ?? 0) > 1
      ? `${base.slice(0, nameBound - 9)}_${sha256Of(`${tools[index]!.server}/${tools[index]!.tool}`).slice(0, 8)}`
      : base
  )
  const taken = new Set<string>()
  return hashed.map((name) => {
    let unique = name
    for (let suffix = 2; taken.has(unique); suffix++)
      unique = `${name.slice(0, nameBound - String(suffix).length - 1)}_${suffix}`
    taken.add(unique)
    return unique
  })
}
