import { Liquid } from "liquidjs"
import { clip, money, words } from "./templateFilters.js"

/** Tags a template may not use: no other templates exist, and `capture` escapes the size bound (§1.5). */
export const removedTags: ReadonlyMap<string, string> = new Map([
  ["include", "no other templates exist"],
  ["render", "no other templates exist"],
  ["layout", "no other templates exist"],
  ["block", "no other templates exist"],
  ["capture", "it escapes the size bound; use assign with append"]
])

/** Standard filters a template may not use, and why (function-formats.md §1.5). */
export const removedFilters: ReadonlyMap<string, string> = new Map([
  ...["where_exp", "reject_exp", "group_by_exp", "has_exp", "find_exp", "find_index_exp"].map(
    (name) => [name, "it evaluates text the save-time check cannot see"] as const
  ),
  ...["date", "date_to_xmlschema", "date_to_rfc822", "date_to_string", "date_to_long_string"].map(
    (name) => [name, "it reads the server's clock, zone and locale; use today or now"] as const
  ),
  ["sample", "it is random"],
  ["sha256", "it has no use here and invites keys"],
  ["hmac_sha256", "it has no use here and invites keys"],
  ["strip_html", "it had security advisories"],
  ...["url_encode", "cgi_escape", "uri_escape", "url_decode"].map(
    (name) => [name, "it grows its output without charging memory"] as const
  ),
  ["inspect", "use json"],
  ["jsonify", "use json"]
])

/** The bounds of one render (function-formats.md §1.5). */
export const templateBounds = { characters: 65_536, names: 1_000, nesting: 2_000, renderMillis: 200, memory: 5_000_000 }

/**
 * Makes the one template engine configuration of the runtime (decision F12): liquidjs in memory, no file system, strict filters,
 * strict variables except in conditions and as the subject of `default`, own properties only, with the render
 * time and memory bounds of §1.5, the removed tags and filters taken out, and `money`, `clip` and `words` added.
 */
export const makeTemplateEngine = (): Liquid => {
  const engine = new Liquid({
    strictFilters: true,
    strictVariables: true,
    lenientIf: true,
    ownPropertyOnly: true,
    renderLimit: templateBounds.renderMillis,
    memoryLimit: templateBounds.memory,
    relativeReference: false,
    dynamicPartials: false
  })
  for (const name of removedTags.keys()) delete (engine.tags as Record<string, unknown>)[name]
  for (const name of removedFilters.keys()) delete (engine.filters as Record<string, unknown>)[name]
  engine.registerFilter("money", money)
  engine.registerFilter("clip", clip)
  engine.registerFilter("words", words)
  return engine
}

/** The engine of every template but a prompt (which adds its system block to an engine of its own). */
export const templateEngine: Liquid = makeTemplateEngine()
