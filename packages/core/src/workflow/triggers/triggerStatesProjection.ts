import type { Fact } from "../../domain/Fact.js"
import { runEndingTypes } from "../../interactions/interactionFacts.js"
import type { Projection, ViewDoc, ViewKey } from "../../ports/Views.js"
import { nextDueAfter } from "./dueTimes.js"
import { definitionTriggerTypes, foldTriggers } from "./foldTriggers.js"
import type { ScheduleTriggerView } from "./TriggerView.js"
import { triggerStreamTypes } from "./triggerFacts.js"
import { startsPerMinute, type WorkflowTriggers } from "./WorkflowTriggers.js"

/** The view of each playbook's workflows with triggers: partition `<org>/<playbook>`, one document per name. */
export const workflowTriggersView = "workflow_triggers"

/** The view of what the trigger host must look at next, in one partition sorted by when (ADR 0281). */
export const triggerDueView = "trigger_due"

/** The one partition of the trigger due view. */
export const triggerDuePartition = "due"

/** The partition of a playbook's workflows with triggers. */
export const workflowTriggersPartition = (org: string, playbook: string): string => `${org}/${playbook}`

/** What one due document names: a schedule trigger of a workflow, or its queue of held-back event starts. */
export interface TriggerDue {
  readonly org: string
  readonly playbook: string
  readonly name: string
  /** `/schedule/cron`, `/schedule/every`, or `queue`. */
  readonly what: string
}

/** The things of a workflow that may be due. */
const dueThings = ["/schedule/cron", "/schedule/every", "queue"] as const

/** The workflow a fact changes the triggers of, if any. */
const workflowOf = (fact: Fact): { org: string; playbook: string; name: string } | undefined => {
  const parts = fact.metadata.stream.split("/")
  if (parts[0] === "playbook" && parts[3] === "definitions")
    return parts[4] === "workflow" ? { org: parts[1]!, playbook: parts[2]!, name: parts[5]! } : undefined
  if (parts[0] === "triggers" && parts.length === 4) return { org: parts[1]!, playbook: parts[2]!, name: parts[3]! }
  if (parts[0] === "playbook" && parts[3] === "runs" && fact.metadata.trigger !== undefined)
    return fact.metadata.definition?.type === "workflow"
      ? { org: parts[1]!, playbook: parts[2]!, name: fact.metadata.definition.name }
      : undefined
  return undefined
}

const stateKeyOf = (where: { org: string; playbook: string; name: string }): ViewKey => ({
  view: workflowTriggersView,
  partition: workflowTriggersPartition(where.org, where.playbook),
  id: where.name
})

/** The due document id of one thing of a workflow. */
export const triggerDueId = (org: string, playbook: string, name: string, what: string): string =>
  `${org}/${playbook}/${name}#${what}`

/** When a schedule trigger is next due, from its activation, its latest handled time and the latest resume. */
const scheduleDue = (state: WorkflowTriggers, what: string): string | undefined => {
  const activation = state.triggers.find((kept) => kept.trigger.reference === what)
  if (activation === undefined) return undefined
  const anchor = Date.parse(activation.activated_at)
  const after = Math.max(
    anchor,
    Date.parse(state.last_due[what] ?? activation.activated_at),
    state.resumed_at === undefined ? anchor : Date.parse(state.resumed_at)
  )
  const next = nextDueAfter(activation.trigger as ScheduleTriggerView, anchor, after)
  return next === undefined ? undefined : new Date(next).toISOString()
}

/** When the queue of held-back starts may take its next start: now, or the next minute once this one is full. */
const queueDue = (state: WorkflowTriggers, fact: Fact): string | undefined => {
  if (state.queued.length === 0) return undefined
  if (state.event_minute === undefined || state.event_starts < startsPerMinute) return fact.metadata.at
  return new Date(Date.parse(`${state.event_minute}:00.000Z`) + 60_000).toISOString()
}

const dueDoc = (state: WorkflowTriggers | undefined, key: ViewKey, fact: Fact, what: string): ViewDoc | undefined => {
  if (state === undefined || state.status !== "active") return undefined
  const sort = what === "queue" ? queueDue(state, fact) : scheduleDue(state, what)
  if (sort === undefined) return undefined
  const due: TriggerDue = { org: state.org, playbook: state.playbook, name: state.name, what }
  return { id: key.id, sort, data: due }
}

/**
 * Folds workflows' trigger state (ADR 0281) into `workflow_triggers`, and in the same fold the `trigger_due`
 * documents of their schedule triggers (when next due) and of their queues of held-back event starts.
 */
export const triggerStatesProjection: Projection = {
  view: workflowTriggersView,
  types: [...definitionTriggerTypes, "run_started", ...runEndingTypes, ...triggerStreamTypes],
  keys: (fact) => {
    const where = workflowOf(fact)
    if (where === undefined) return []
    return [
      stateKeyOf(where),
      ...dueThings.map((what) => ({
        view: triggerDueView,
        partition: triggerDuePartition,
        id: triggerDueId(where.org, where.playbook, where.name, what)
      }))
    ]
  },
  apply: (current, fact, key, read) => {
    const where = workflowOf(fact)!
    if (key.view === workflowTriggersView) {
      const next = foldTriggers(current?.data as WorkflowTriggers | undefined, fact, where)
      return next === undefined ? undefined : { id: key.id, sort: key.id, data: next }
    }
    const state = read(stateKeyOf(where))?.data as WorkflowTriggers | undefined
    return dueDoc(state, key, fact, key.id.slice(key.id.indexOf("#") + 1))
  }
}
