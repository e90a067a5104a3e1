import type { Fact } from "../../domain/Fact.js"
import { type EventPublished, eventPublished } from "../../playbookEvents/eventPublished.js"

/** A fact's data as filters see it: a triggered run's facts carry `trigger: { kind, reference }` (§8.3). */
const dataOf = (fact: Fact): unknown => {
  const trigger = fact.metadata.trigger
  if (trigger === undefined || typeof fact.data !== "object" || fact.data === null || Array.isArray(fact.data))
    return fact.data
  return { ...fact.data, trigger }
}

/**
 * A playbook fact as the event a trigger filter or an open listen sees (workflow-format.md §8.3, §12.2): a published
 * or emitted event as it was kept; any other fact with its type, its record id, `source` `/runs/<run id>` for a run's
 * facts (else `/definitions/<type>/<name>`), `subject` `<type>/<name>` of its definition, its time and its data,
 * which for a triggered run's facts holds the trigger.
 */
export const eventOfFact = (fact: Fact): Record<string, unknown> => {
  if (fact.type === eventPublished) return { ...(fact.data as EventPublished).event }
  const definition = fact.metadata.definition
  return {
    specversion: "1.0",
    id: fact.id,
    type: fact.type,
    source:
      fact.metadata.run_id !== undefined
        ? `/runs/${fact.metadata.run_id}`
        : definition === undefined
          ? `/playbooks/${fact.metadata.stream.split("/")[2]}`
          : `/definitions/${definition.type}/${definition.name}`,
    ...(definition === undefined ? {} : { subject: `${definition.type}/${definition.name}` }),
    time: fact.metadata.at,
    data: dataOf(fact)
  }
}

/**
 * How deep a fact is in a chain of triggers (workflow-format.md §12.4): a published event counts 1, an emitted one
 * carries its depth, a fact about a run counts the run's depth + 1, any other fact 1.
 */
export const depthOfFact = (fact: Fact): number => {
  if (fact.type === eventPublished) return fact.metadata.depth ?? 1
  if (fact.metadata.run_id !== undefined) return (fact.metadata.depth ?? 0) + 1
  return 1
}
