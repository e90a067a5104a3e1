import type { DefinitionType } from "../definitions/DefinitionType.js"
import type { DefinitionVersionData } from "../definitions/definitionFacts.js"
import type { Fact } from "../domain/Fact.js"
import type { Projection } from "../ports/Views.js"
import type { RunStarted } from "../runs/runFacts.js"
import { itemOf, type RowTrigger } from "./ActivityRow.js"
import { heldDoc, listedDoc } from "./rowDoc.js"
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

/**
 * Folds runs and versions into `new` rows: a run's start is kept (not listed) until it ends, listed when it
 * succeeds and dropped when it fails or is rejected, so a retry starts it again; a run a workflow's call started
 * has no row. Each version saved is listed as created or updated.
 */
export const newRowsProjection: Projection = {
  view: newRowsView,
  types: ["definition_created", "definition_updated", "run_started", "run_succeeded", "run_rejected", "run_failed"],
  keys: (fact) => {
    const [root, org, playbook, what, ...rest] = fact.metadata.stream.split("/")
    if (root !== "playbook") return []
    if (what === "definitions") {
      const version = (fact.data as Partial<DefinitionVersionData> | null)?.version ?? 1
      return [{ view: newRowsView, partition: org, id: `${playbook}/definitions/${rest.join("/")}/${version}` }]
    }
    return what === "runs" && !startedByWorkflow(fact)
      ? [{ view: newRowsView, partition: org, id: `${playbook}/runs/${rest[0]}` }]
      : []
  },
  apply: (current, fact, key) => {
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
}
