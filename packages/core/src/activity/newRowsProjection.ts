import type { DefinitionType } from "../definitions/DefinitionType.js"
import type { DefinitionVersionData } from "../definitions/definitionFacts.js"
import type { Fact } from "../domain/Fact.js"
import type { Projection, ViewDoc, ViewKey } from "../ports/Views.js"
import type { RunStarted } from "../runs/runFacts.js"
import { type ActivityItem, itemOf, type RowTrigger } from "./ActivityRow.js"
import { countKeys, withListedRow } from "./newRowCounts.js"
import { heldDoc, isListed, listedDoc } from "./rowDoc.js"
import { startedByWorkflow } from "./startedByWorkflow.js"

/**
 * The view of the org's new runs and versions: partition the org, one row per run that succeeded
 * (`<playbook>/runs/<run id>`) and per version saved (`<playbook>/definitions/<type>/<name>/<version>`).
 */
export const newRowsView = "activity_new"

/** What a run's document keeps from its start until it ends: who started it, its trigger and its output shape. */
interface RunStart {
  readonly by: string
  readonly trigger: RowTrigger | null
  readonly output_shape: string | null
}

/** The trigger a run's metadata names, as a row shows it. */
const triggerOf = (fact: Fact): RowTrigger | null => {
  const trigger = fact.metadata.trigger as { kind?: unknown; reference?: unknown } | undefined | null
  return trigger && (trigger.kind === "event" || trigger.kind === "cron" || trigger.kind === "every")
    ? { kind: trigger.kind, reference: String(trigger.reference ?? "") }
    : null
}

/** The document of the row a fact changes: its run's or its version's, in the org's partition. */
const rowKeyOf = (fact: Fact): ViewKey | undefined => {
  const [root, org, playbook, what, ...rest] = fact.metadata.stream.split("/")
  if (root !== "playbook") return undefined
  if (what === "definitions") {
    const version = (fact.data as Partial<DefinitionVersionData> | null)?.version ?? 1
    return { view: newRowsView, partition: org, id: `${playbook}/definitions/${rest.join("/")}/${version}` }
  }
  return what === "runs" && !startedByWorkflow(fact)
    ? { view: newRowsView, partition: org, id: `${playbook}/runs/${rest[0]}` }
    : undefined
}

/** The fact types that may list a row, at the fact's time. */
const listingTypes = ["definition_created", "definition_updated", "run_succeeded"]

/**
 * The row after a fact. A listed row is final (ADR 0180): a run that succeeded is answered, never run again, and a
 * version is saved once, so no later fact moves or drops it.
 */
const rowAfter = (current: ViewDoc | undefined, fact: Fact, key: ViewKey): ViewDoc | undefined => {
  if (current !== undefined && isListed(current)) return current
  const [playbook, , type, name, version] = key.id.split("/")
  const { at, by } = fact.metadata
  switch (fact.type) {
    case "definition_created":
    case "definition_updated":
      return listedDoc(
        itemOf({
          kind: "new",
          address: key.id,
          playbook,
          at,
          by,
          seen_by: by,
          change: fact.type === "definition_created" ? "created" : "updated",
          definition: { type: type as DefinitionType, name, version: Number(version) }
        })
      )
    case "run_started": {
      const data = fact.data as Partial<RunStarted> | null
      const start: RunStart = {
        by: data?.started_by?.id ?? by,
        trigger: triggerOf(fact),
        output_shape: data?.output_shape ?? null
      }
      return heldDoc(key.id, start)
    }
    case "run_succeeded": {
      const start = current?.data as RunStart | undefined
      const definition = fact.metadata.definition
      if (start === undefined || definition === undefined) return current
      return listedDoc(
        itemOf({
          kind: "new",
          address: key.id,
          playbook,
          at,
          by: start.by,
          seen_by: start.by,
          trigger: start.trigger,
          definition: {
            type: definition.type as DefinitionType,
            name: definition.name,
            version: definition.version ?? 1
          },
          run_id: key.id.split("/")[2],
          output_shape: start.output_shape
        })
      )
    }
    default:
      return undefined
  }
}

/**
 * Folds runs and versions into `new` rows: a run's start is kept (not listed) until it ends, listed when it
 * succeeds and dropped when it fails or is rejected, so a retry starts it again; a run a workflow's call started
 * has no row. Each version saved is listed as created or updated. A fact that may list a row also keys the counts
 * of the row's day, hour and minute (`newRowCounts.ts`), before the row, so each reads the row as it stood and
 * counts it when the fact lists it.
 */
export const newRowsProjection: Projection = {
  view: newRowsView,
  types: ["definition_created", "definition_updated", "run_started", "run_succeeded", "run_rejected", "run_failed"],
  keys: (fact) => {
    const row = rowKeyOf(fact)
    if (row === undefined) return []
    return listingTypes.includes(fact.type)
      ? [...countKeys(row.partition, row.id.split("/")[0], fact.metadata.at), row]
      : [row]
  },
  apply: (current, fact, key, read) => {
    if (key.view === newRowsView) return rowAfter(current, fact, key)
    const rowKey = rowKeyOf(fact)!
    const before = read(rowKey)
    const after = rowAfter(before, fact, rowKey)
    return after === undefined || !isListed(after) || (before !== undefined && isListed(before))
      ? current
      : withListedRow(current, key, after.data as ActivityItem)
  }
}
