import type { Fact } from "../domain/Fact.js"

/** How a definition is named in words: the workflow “x”, or the computation function “x”. */
const named = (fact: Fact): string => {
  const definition = fact.metadata.definition
  if (definition === undefined) return "a definition"
  return definition.type === "workflow"
    ? `the workflow “${definition.name}”`
    : `the ${definition.type} function “${definition.name}”`
}

/** A sentence in plain language of what a fact records; rendered at read time, never stored. */
export const summaryOf = (fact: Fact): string => {
  const data = (fact.data ?? {}) as Record<string, unknown>
  switch (fact.type) {
    case "run_started":
      return `A run of ${named(fact)} started${Number(data.attempt) > 1 ? `, attempt ${data.attempt}` : ""}.`
    case "run_succeeded":
      return "A run finished."
    case "run_rejected":
      return `A run was rejected: ${String(data.reason)}${data.kind ? `, ${String(data.kind)}` : ""}.`
    case "run_failed":
      return "A run failed inside the runtime."
    case "run_cancel_requested":
      return "Cancelling the run was asked for."
    case "definition_created":
      return `${capitalised(named(fact))} was created.`
    case "definition_updated":
      return `${capitalised(named(fact))} was saved as version ${String(data.version)}.`
    case "definition_paused":
      return `${capitalised(named(fact))} was paused.`
    case "definition_resumed":
      return `${capitalised(named(fact))} was resumed.`
    case "definition_retired":
      return `${capitalised(named(fact))} was retired.`
    case "definition_restored":
      return `${capitalised(named(fact))} was restored, paused.`
    default:
      return `Recorded ${fact.type.replaceAll("_", " ")}.`
  }
}

const capitalised = (words: string): string => words.charAt(0).toUpperCase() + words.slice(1)
