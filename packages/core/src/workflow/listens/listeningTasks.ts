import { Effect } from "effect"
import { Views } from "../../ports/Views.js"
import {
  type OpenListen,
  type WorkflowListening,
  workflowListensPartition,
  workflowListensView
} from "../run/workflowListensProjection.js"

/** The most listening tasks a playbook offers its events to (workflow-format.md §8.1, §15). */
export const maxListeningTasks = 4_096

/** One open listen that hears the playbook's events: its run and its key. */
export interface ListeningTask extends OpenListen {
  readonly stream: string
  readonly run_id: string
  readonly key: string
}

/**
 * The first `bound` listens, in the order they opened, of the runs given in the order they began to listen: the
 * listens beyond it hear only events sent to their runs.
 */
export const firstListens = (runs: ReadonlyArray<WorkflowListening>, bound: number): ReadonlyArray<ListeningTask> =>
  runs
    .flatMap((run) =>
      Object.entries(run.listens ?? {}).map(([key, listen]) => ({
        ...listen,
        key,
        stream: run.stream,
        run_id: run.run_id
      }))
    )
    .sort((left, right) => left.since - right.since || (left.key < right.key ? -1 : 1))
    .slice(0, bound)

/** The listens of a playbook's runs that hear its events: the first 4,096 to open. */
export const listeningTasks = (org: string, playbook: string) =>
  Effect.gen(function* () {
    const views = yield* Views
    const docs = yield* views.list(workflowListensView, workflowListensPartition(org, playbook), {
      direction: "ascending",
      limit: maxListeningTasks
    })
    return firstListens(
      docs.map((doc) => doc.data as WorkflowListening),
      maxListeningTasks
    )
  })
