import type { Fact } from "../domain/Fact.js"
import { deliverySummary } from "../interactions/deliverySummary.js"
import { toolCallSummary } from "../tools/toolCallSummary.js"

/** How a definition is named in words: the workflow “x”, or the computation function “x”. */
const named = (fact: Pick<Fact, "metadata">): string => {
  const definition = fact.metadata.definition
  if (definition === undefined) return "a definition"
  return definition.type === "workflow"
    ? `the workflow “${definition.name}”`
    : `the ${definition.type} function “${definition.name}”`
}

/** A sentence in plain language of what a fact records; rendered at read time, never stored. */
export const summaryOf = (fact: Pick<Fact, "type" | "data" | "metadata">): string => {
  const data = (fact.data ?? {}) as Record<string, unknown>
  switch (fact.type) {
    case "run_started":
      return `A run of ${named(fact)} started${Number(data.attempt) > 1 ? `, attempt ${data.attempt}` : ""}${triggerWords(fact)}.`
    case "run_succeeded":
      return "A run finished."
    case "run_rejected":
      return `A run was rejected: ${String(data.reason)}${data.kind ? `, ${String(data.kind)}` : ""}.`
    case "run_failed":
      return "A run failed inside the runtime."
    case "run_cancel_requested":
      return "Cancelling the run was asked for."
    case "attempt_resumed":
      return `The run was taken up again where it stopped, attempt ${String(data.attempt)}.`
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
    case "workflow_input_applied":
      return `The run took ${inputWords[String((data.input as { kind?: unknown })?.kind)] ?? "an input"} and moved ${Number(data.step_count)} step${Number(data.step_count) === 1 ? "" : "s"}.`
    case "step_started":
      return `The step “${String(data.name)}” started.`
    case "step_waiting":
      return `The step “${String(data.name)}” waits for ${waitWords[String(data.waits_for)] ?? "something"}.`
    case "step_finished":
      return `The step “${String(data.name)}” finished.`
    case "step_failed":
      return `The step “${String(data.name)}” ${failWords[String(data.outcome)] ?? "failed"}.`
    case "step_skipped":
      return `The step “${String(data.name)}” was skipped.`
    case "event_published":
      return `The event ${String(data.event_type)} was recorded.`
    case "tool_call_started":
    case "tool_call_answered":
    case "tool_call_failed":
      return toolCallSummary(fact.type, data)
    case "delivery_started":
    case "delivery_succeeded":
    case "delivery_failed":
    case "delivery_refused":
      return deliverySummary(fact.type, data)
    default:
      return `Recorded ${fact.type.replaceAll("_", " ")}.`
  }
}

/** Which kind of trigger started a run, in words: "; it was started by its cron schedule" (HTTP "Event fields"). */
const triggerWords = (fact: Pick<Fact, "metadata">): string => {
  const kind = (fact.metadata.trigger as { kind?: unknown } | undefined)?.kind
  if (kind === "event") return "; it was started by its event trigger"
  return kind === "cron" || kind === "every" ? `; it was started by its ${kind} schedule` : ""
}

const inputWords: Readonly<Record<string, string>> = {
  started: "its start",
  call_answered: "a call's answer",
  timer_fired: "a timer",
  event_received: "an event",
  cancel_requested: "a cancel"
}

const waitWords: Readonly<Record<string, string>> = {
  call: "a call",
  timer: "a timer",
  event: "an event",
  admission: "admission"
}

const failWords: Readonly<Record<string, string>> = {
  raised: "raised an error",
  timed_out: "timed out",
  cancelled: "was cancelled"
}

const capitalised = (words: string): string => words.charAt(0).toUpperCase() + words.slice(1)
