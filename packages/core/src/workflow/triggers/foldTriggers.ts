import { type DefinitionVersionData, definitionFactTypes } from "../../definitions/definitionFacts.js"
import type { Fact } from "../../domain/Fact.js"
import { runEndingTypes } from "../../interactions/interactionFacts.js"
import { jsonEqual } from "../engine/jsonValues.js"
import type { TriggerView } from "./TriggerView.js"
import {
  type SchedulePassed,
  schedulePassed,
  type TriggerStartQueued,
  triggerStartDropped,
  triggerStartQueued
} from "./triggerFacts.js"
import type { TriggerActivation, WorkflowTriggers } from "./WorkflowTriggers.js"

/**
 * The definition facts that change a workflow's triggers: every one, as each creates, changes, pauses or ends the
 * version its triggers come from.
 */
export const definitionTriggerTypes = definitionFactTypes

/** Who a version acts for: the person who recorded it, if a person did. */
const actsForOf = (fact: Fact): string | undefined =>
  fact.metadata.by.startsWith("person:") ? fact.metadata.by : undefined

const activated = (trigger: TriggerView, fact: Fact): TriggerActivation => ({
  trigger,
  activated_id: fact.id,
  activated_at: fact.metadata.at,
  activated_position: fact.metadata.global_position
})

/** Keeps only the entries of a record whose key is one of the references. */
const keptFor = (record: Readonly<Record<string, string>>, references: ReadonlyArray<string>) =>
  Object.fromEntries(Object.entries(record).filter(([reference]) => references.includes(reference)))

/** A new version's triggers against the current ones (workflow-format.md §12.5): unchanged ones keep everything. */
const saved = (
  current: WorkflowTriggers | undefined,
  fact: Fact,
  where: { org: string; playbook: string; name: string }
): WorkflowTriggers | undefined => {
  const data = fact.data as DefinitionVersionData
  const triggers = data.triggers ?? []
  if (triggers.length === 0) return undefined
  const before = current?.status === "retired" ? undefined : current
  const activations = triggers.map((trigger) => {
    const earlier = before?.triggers.find((kept) => kept.trigger.reference === trigger.reference)
    return earlier !== undefined && jsonEqual(earlier.trigger, trigger) ? earlier : activated(trigger, fact)
  })
  const references = activations.map((activation) => activation.trigger.reference)
  const oldEvent = before?.triggers.find((kept) => kept.trigger.kind === "event")
  const newEvent = activations.find((activation) => activation.trigger.kind === "event")
  const eventChanged = oldEvent !== undefined && newEvent !== undefined && newEvent !== oldEvent
  const actsFor = actsForOf(fact)
  return {
    ...where,
    version: data.version,
    status: before?.status ?? "active",
    ...(actsFor === undefined ? {} : { acts_for: actsFor }),
    triggers: activations,
    ...(eventChanged
      ? {
          earlier_event: { ...oldEvent, version: before!.version, until_position: fact.metadata.global_position }
        }
      : before?.earlier_event === undefined || newEvent === undefined
        ? {}
        : { earlier_event: before.earlier_event }),
    ...(before?.resumed_at === undefined ? {} : { resumed_at: before.resumed_at }),
    ...(before?.paused_position === undefined ? {} : { paused_position: before.paused_position }),
    ...(before?.resumed_position === undefined ? {} : { resumed_position: before.resumed_position }),
    running: keptFor(before?.running ?? {}, references),
    last_due: keptFor(before?.last_due ?? {}, references),
    ...(before?.event_minute === undefined ? {} : { event_minute: before.event_minute }),
    event_starts: before?.event_starts ?? 0,
    queued: newEvent === undefined ? [] : (before?.queued ?? [])
  }
}

/** The trigger a run's metadata names, when a trigger started it. */
const triggerOfRun = (fact: Fact): { kind: string; reference: string } | undefined => {
  const trigger = fact.metadata.trigger as { kind?: unknown; reference?: unknown } | undefined
  return typeof trigger?.kind === "string" && typeof trigger.reference === "string"
    ? { kind: trigger.kind, reference: trigger.reference }
    : undefined
}

const withoutQueued = (state: WorkflowTriggers, runId: string | undefined): WorkflowTriggers => ({
  ...state,
  queued: state.queued.filter((queued) => queued.run_id !== runId)
})

/** A triggered run's start: a schedule's running run and handled due time, or an event start counted in its minute. */
const runStarted = (state: WorkflowTriggers, fact: Fact): WorkflowTriggers => {
  const trigger = triggerOfRun(fact)!
  const runId = fact.metadata.run_id!
  if (trigger.kind === "event") {
    const minute = fact.metadata.at.slice(0, 16)
    return withoutQueued(
      {
        ...state,
        event_minute: minute,
        event_starts: state.event_minute === minute ? state.event_starts + 1 : 1
      },
      runId
    )
  }
  const due = (fact.data as { input?: { schedule?: { due?: unknown } } }).input?.schedule?.due
  if (!state.triggers.some((activation) => activation.trigger.reference === trigger.reference)) return state
  return {
    ...state,
    running: { ...state.running, [trigger.reference]: runId },
    last_due:
      typeof due === "string" && due > (state.last_due[trigger.reference] ?? "")
        ? { ...state.last_due, [trigger.reference]: due }
        : state.last_due
  }
}

/**
 * Folds one fact into a workflow's trigger state (ADR 0281): the one place it is derived. `where` names the
 * workflow the fact is keyed to. Undefined when the workflow has no trigger (none saved, or all removed).
 */
export const foldTriggers = (
  current: WorkflowTriggers | undefined,
  fact: Fact,
  where: { org: string; playbook: string; name: string }
): WorkflowTriggers | undefined => {
  switch (fact.type) {
    case "definition_created":
    case "definition_updated":
      return saved(current, fact, where)
    case "definition_paused":
      return current && { ...current, status: "paused", paused_position: fact.metadata.global_position }
    case "definition_resumed":
      return current?.status === "paused"
        ? {
            ...current,
            status: "active",
            resumed_at: fact.metadata.at,
            resumed_position: fact.metadata.global_position
          }
        : current
    case "definition_retired":
      return current && { ...current, status: "retired", queued: [] }
    case "definition_restored": {
      if (current === undefined) return undefined
      const actsFor = actsForOf(fact)
      const { acts_for: _actsFor, earlier_event: _earlier, ...rest } = current
      return {
        ...rest,
        ...(actsFor === undefined ? {} : { acts_for: actsFor }),
        status: "paused",
        paused_position: fact.metadata.global_position,
        triggers: current.triggers.map((activation) => activated(activation.trigger, fact)),
        last_due: {}
      }
    }
    case "run_started":
      return current && runStarted(current, fact)
    case schedulePassed: {
      if (current === undefined) return undefined
      const data = fact.data as SchedulePassed
      return data.due > (current.last_due[data.reference] ?? "")
        ? { ...current, last_due: { ...current.last_due, [data.reference]: data.due } }
        : current
    }
    case triggerStartQueued: {
      if (current === undefined) return undefined
      const data = fact.data as TriggerStartQueued
      return current.queued.some((queued) => queued.run_id === data.run_id)
        ? current
        : { ...current, queued: [...current.queued, data] }
    }
    case triggerStartDropped:
      return current && withoutQueued(current, (fact.data as { run_id?: string }).run_id)
    default: {
      if (current === undefined || !(runEndingTypes as ReadonlyArray<string>).includes(fact.type)) return current
      const trigger = triggerOfRun(fact)
      if (trigger === undefined || current.running[trigger.reference] !== fact.metadata.run_id) return current
      const { [trigger.reference]: _ended, ...running } = current.running
      return { ...current, running }
    }
  }
}
