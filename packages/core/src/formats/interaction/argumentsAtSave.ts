import { Either } from "effect"
import type { Template } from "liquidjs"
import { jsonBytes } from "../../domain/utf8Bytes.js"
import type { ArgumentTemplate } from "../lookup/readLookup.js"
import { renderArguments } from "../lookup/renderArguments.js"
import { momentsOf } from "./renderTemplate.js"
import { templateEngine } from "./templateEngine.js"

/** The most bytes the arguments of one call may hold as JSON (function-formats.md §3.9): 16 KiB. */
export const callArgumentsBound = 16_384

/** The moments a save renders arguments over: a fixed sample, so the check reads no clock. */
const sampleMoments = momentsOf(Date.UTC(2026, 0, 1))

/** The variables a save can render: the moments, the only ones whose value it may sample. */
const sampled = new Set(["today", "now"])

/** Whether a template reads any variable from outside besides the moments. */
const readsMoreThanMoments = (template: ArgumentTemplate): boolean =>
  Object.keys(templateEngine.analyzeSync(template.template as Array<Template>).globals).some(
    (name) => !sampled.has(name)
  )

/**
 * The save's measure of a `with` block (function-formats.md §3.9 "arguments of any call 16 KiB as JSON (refused
 * at save when they read no input)", §1.5): arguments whose templates read nothing but `today` and `now` are
 * rendered once over sample moments, and arguments over 16 KiB as JSON are an issue at `pointer`, since every run
 * would refuse them. Arguments that read anything else are measured by each run (ADR 0194). Undefined when they fit
 * or cannot be measured here.
 */
export const argumentsTooLargeAtSave = (
  value: unknown,
  templates: ReadonlyMap<string, ArgumentTemplate>,
  pointer: string
): string | undefined => {
  if ([...templates.values()].some(readsMoreThanMoments)) return undefined
  const rendered = renderArguments(value, templates, { ...sampleMoments }, pointer)
  if (Either.isLeft(rendered)) return undefined
  const bytes = jsonBytes(rendered.right)
  return bytes > callArgumentsBound
    ? `the arguments render ${bytes.toLocaleString("en-US")} bytes as JSON, and a call's arguments hold at most 16 KiB (16,384 bytes); they read no input, so every run would be refused: make them smaller`
    : undefined
}
