import { runEndingTypes } from "../../interactions/interactionFacts.js"
import type { Projection } from "../../ports/Views.js"
import { type WorkflowInputApplied, workflowInputApplied } from "./workflowFacts.js"
import { isWorkflowRunFact } from "./workflowRunAddress.js"

/** The view of the playbook's listening runs: partition `<org>/<playbook>`, one document per listening run. */
export const workflowListensView = "workflow_listens"

/** The partition of a playbook's listening runs. */
export const workflowListensPartition = (org: string, playbook: string): string => `${org}/${playbook}`

/** An open listen registered for playbook events: the literal types it hears and the record that opened it. */
export interface OpenListen {
  readonly types: ReadonlyArray<string>
  /** The global position of the `workflow_input_applied` that opened it: only later facts are offered to it. */
  readonly since: number
  /** That record's id. */
  readonly since_id: string
}

/**
 * A listening run: its stream, its run id and its open listens by key (ADR 0295). A document folded from a fact of
 * an earlier version (types only) holds one listen under the key `*`, which any open listen of the run may take.
 */
export interface WorkflowListening {
  readonly stream: string
  readonly run_id: string
  readonly listens: Readonly<Record<string, OpenListen>>
}

/** The key of the listen a fact recorded before listens were kept by key stands for. */
export const anyListen = "*"

/** A document's sort: the position of its earliest open listen, so a partition lists runs in the order they listened. */
const sortOf = (listens: Readonly<Record<string, OpenListen>>): string =>
  String(Math.min(...Object.values(listens).map((listen) => listen.since))).padStart(16, "0")

/**
 * Folds which runs listen for which playbook events (workflow-format.md §8.1): each input sets the open listens of
 * its run, a listen already open keeping the record that opened it; a run that listens for nothing, or ends,
 * leaves the view.
 */
export const workflowListensProjection: Projection = {
  view: workflowListensView,
  types: [workflowInputApplied, ...runEndingTypes],
  keys: (fact) => {
    if (!isWorkflowRunFact(fact)) return []
    const [, org, playbook] = fact.metadata.stream.split("/")
    return [
      { view: workflowListensView, partition: workflowListensPartition(org!, playbook!), id: fact.metadata.stream }
    ]
  },
  apply: (current, fact, key) => {
    if (fact.type !== workflowInputApplied) return undefined
    const data = fact.data as WorkflowInputApplied
    const given = data.listens ?? (data.listening === undefined ? undefined : { [anyListen]: data.listening })
    if (data.ended || given === undefined) return undefined
    const before = (current?.data as WorkflowListening | undefined)?.listens ?? {}
    const opened = { since: fact.metadata.global_position, since_id: fact.id }
    const listens = Object.fromEntries(
      Object.entries(given).map(([listenKey, types]) => {
        const kept = before[listenKey]
        return [listenKey, { types, since: kept?.since ?? opened.since, since_id: kept?.since_id ?? opened.since_id }]
      })
    )
    return {
      id: key.id,
      sort: sortOf(listens),
      data: { stream: key.id, run_id: data.run_id, listens } satisfies WorkflowListening
    }
  }
}
