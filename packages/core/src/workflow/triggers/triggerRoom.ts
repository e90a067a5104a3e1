import { Effect } from "effect"
import { conflict, type Rejection } from "../../domain/Rejection.js"
import type { ReadDocument } from "../../formats/DefinitionFormat.js"
import { readPartition } from "../../ledger/readPartition.js"
import type { Views } from "../../ports/Views.js"
import { workflowTriggersPartition, workflowTriggersView } from "./triggerStatesProjection.js"
import type { WorkflowTriggers } from "./WorkflowTriggers.js"

/** The most workflows with triggers a playbook holds (workflow-format.md §12.6, §15). */
export const maxTriggeredWorkflows = 1_024

/**
 * Refuses with `conflict` a save that would give the playbook more than 1,024 workflows with triggers (retired ones
 * not counted); a save of a workflow that has triggers already, or of a document without any, always has room.
 */
export const checkTriggerRoom = (
  org: string,
  playbook: string,
  name: string,
  document: ReadDocument
): Effect.Effect<void, Rejection, Views> =>
  Effect.gen(function* () {
    if (document.triggers === undefined || document.triggers.length === 0) return
    const held = (yield* readPartition(workflowTriggersView, workflowTriggersPartition(org, playbook)))
      .map((doc) => doc.data as WorkflowTriggers)
      .filter((state) => state.status !== "retired")
    if (held.length < maxTriggeredWorkflows || held.some((state) => state.name === name)) return
    return yield* Effect.fail(
      conflict(
        `The playbook ${playbook} holds ${maxTriggeredWorkflows} workflows with triggers, the most it may; remove the schedule of one, or retire one, before saving another.`
      )
    )
  })
