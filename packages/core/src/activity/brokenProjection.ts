import type { DefinitionType } from "../definitions/DefinitionType.js"
import type { DefinitionVersionData } from "../definitions/definitionFacts.js"
import type { Fact } from "../domain/Fact.js"
import type { Projection, ViewDoc } from "../ports/Views.js"
import type { RunRejected } from "../runs/runFacts.js"
import { type ActivityItem, itemOf } from "./ActivityRow.js"
import { clip } from "./clip.js"
import { heldDoc, isListed, listedDoc } from "./rowDoc.js"
import { startedByWorkflow } from "./startedByWorkflow.js"

/** The view of the org's broken definitions: partition the org, one document per definition, listed while broken. */
export const brokenView = "activity_broken"

/** What a definition's document keeps while it is not broken: its current version and whether it is retired. */
interface Standing {
  readonly version: number
  readonly retired: boolean
}

/** The rejections that are neither a failure nor a success: a cancel, and a request that expired unanswered. */
const notFailures = ["cancelled", "unanswered"]

/** The standing a document keeps, listed or held. */
const standingOf = (doc: ViewDoc | undefined): Standing | undefined =>
  doc === undefined
    ? undefined
    : isListed(doc)
      ? { version: (doc.data as ActivityItem).definition!.version, retired: false }
      : (doc.data as Standing)

/** The broken row of a definition's failing run at a version. */
const brokenRow = (key: string, fact: Fact, version: number): ActivityItem => {
  const [playbook, type, name] = key.split("/")
  const rejected = fact.type === "run_rejected" ? ((fact.data as Partial<RunRejected> | null) ?? {}) : undefined
  return itemOf({
    kind: "broken",
    address: key,
    playbook,
    at: fact.metadata.at,
    definition: { type: type as DefinitionType, name, version },
    run_id: fact.metadata.run_id ?? null,
    detail: typeof rejected?.detail === "string" && rejected.detail !== "" ? clip(rejected.detail) : null,
    status: rejected === undefined ? "failed" : "rejected"
  })
}

/**
 * Folds definitions and run endings into `broken` rows: a definition's document holds its current version; a run at
 * that version that fails or is rejected (not cancelled, not expired unanswered) lists it, at the run's end; a run
 * at that version or a later one that succeeds, a new version or its retirement closes it. Runs a workflow's call
 * started have no row of their own.
 */
export const brokenProjection: Projection = {
  view: brokenView,
  types: [
    "definition_created",
    "definition_updated",
    "definition_retired",
    "definition_restored",
    "run_succeeded",
    "run_rejected",
    "run_failed"
  ],
  keys: (fact) => {
    const [root, org, playbook, what, type, name] = fact.metadata.stream.split("/")
    if (root !== "playbook") return []
    if (what === "definitions") return [{ view: brokenView, partition: org, id: `${playbook}/${type}/${name}` }]
    const definition = fact.metadata.definition
    if (what !== "runs" || definition === undefined || startedByWorkflow(fact)) return []
    return [{ view: brokenView, partition: org, id: `${playbook}/${definition.type}/${definition.name}` }]
  },
  apply: (current, fact, key) => {
    const standing = standingOf(current)
    switch (fact.type) {
      case "definition_created":
      case "definition_updated":
        return heldDoc(key.id, {
          version: (fact.data as Partial<DefinitionVersionData> | null)?.version ?? 1,
          retired: false
        })
      case "definition_retired":
        return standing && heldDoc(key.id, { ...standing, retired: true })
      case "definition_restored":
        return standing && heldDoc(key.id, { ...standing, retired: false })
    }
    if (standing === undefined || standing.retired) return current
    const version = fact.metadata.definition?.version ?? 1
    if (fact.type === "run_succeeded")
      return current !== undefined && isListed(current) && version >= standing.version
        ? heldDoc(key.id, standing)
        : current
    if (version !== standing.version) return current
    if (fact.type === "run_rejected" && notFailures.includes(String((fact.data as RunRejected | null)?.reason)))
      return current
    return listedDoc(brokenRow(key.id, fact, version))
  }
}
