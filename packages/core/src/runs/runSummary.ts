import type { Run } from "./RunRecord.js"

/** How a run's definition is named in words. */
const named = (run: Run): string =>
  run.type === "workflow" ? `the workflow “${run.name}”` : `the ${run.type} function “${run.name}”`

/** A short rendering of a value for a summary: JSON cut to a bound. */
const shortly = (value: unknown, bound = 200): string => {
  const text = JSON.stringify(value) ?? "nothing"
  return text.length <= bound ? text : `${text.slice(0, bound - 1)}… (see structuredContent)`
}

/** The plain-language summary of a run as it stands. */
export const runSummary = (run: Run): string => {
  switch (run.status) {
    case "started":
      return `The run of ${named(run)} has started and is still running; how it ends can be looked up later with get_run.`
    case "succeeded":
      return `The run of ${named(run)} finished. Its result: ${shortly(run.output)}`
    case "rejected":
      return `The run of ${named(run)} was rejected: ${run.rejection?.reason}${run.rejection?.kind ? ` (${run.rejection.kind})` : ""}.`
    case "failed":
      return `The run of ${named(run)} failed inside the runtime.`
  }
}
