import { describeValue } from "../document/describeValue.js"

/** The keys each built-in provider namespace offers (function-formats.md §2.5). */
const offeredKeys: Readonly<Record<string, ReadonlyArray<string>>> = {
  anthropic: ["thinking"],
  openai: ["textVerbosity", "reasoningMode", "logitBias"],
  azure: ["textVerbosity", "reasoningMode", "logitBias"],
  google: ["thinkingConfig", "safetySettings", "threshold"],
  vertex: ["thinkingConfig", "safetySettings", "threshold"],
  googleVertex: ["thinkingConfig", "safetySettings", "threshold", "thinking"],
  amazonBedrock: ["reasoningConfig"],
  bedrock: ["reasoningConfig"]
}

/** The keys `thinking` takes. */
const thinkingKeys = ["type", "budgetTokens", "display"]

/** A gateway's namespace: a provider prefix or its camelCase form, checked against the gateway's entry at run time. */
const gatewayNamespace = /^[a-z][A-Za-z0-9-]{0,31}$/

/** One issue of `provider_options`, at a pointer under it. */
export interface OptionIssue {
  readonly pointer: string
  readonly message: string
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Checks `provider_options` at save (function-formats.md §2.5): an object of objects keyed by namespace; a
 * built-in namespace takes only its reviewed keys (`thinking` only `type`, `budgetTokens`, `display`), anything
 * else ending with "is not offered". A gateway's namespace is checked against its entry when a run calls it.
 */
export const providerOptionIssues = (options: unknown): ReadonlyArray<OptionIssue> => {
  if (!isMapping(options))
    return [{ pointer: "", message: `expected a mapping of provider namespaces, found ${describeValue(options)}` }]
  const issues: Array<OptionIssue> = []
  for (const [namespace, value] of Object.entries(options)) {
    const at = `/${namespace}`
    if (!isMapping(value)) {
      issues.push({ pointer: at, message: `expected a mapping of options, found ${describeValue(value)}` })
      continue
    }
    const offered = offeredKeys[namespace]
    if (offered === undefined) {
      if (!gatewayNamespace.test(namespace))
        issues.push({ pointer: at, message: `the namespace ${JSON.stringify(namespace)} is not offered` })
      continue
    }
    for (const [key, option] of Object.entries(value)) {
      if (!offered.includes(key))
        issues.push({ pointer: `${at}/${key}`, message: `the option ${namespace}.${key} is not offered` })
      else if (key === "thinking" && isMapping(option))
        for (const inner of Object.keys(option))
          if (!thinkingKeys.includes(inner))
            issues.push({
              pointer: `${at}/${key}/${inner}`,
              message: `the option ${namespace}.thinking.${inner} is not offered`
            })
    }
  }
  return issues
}
