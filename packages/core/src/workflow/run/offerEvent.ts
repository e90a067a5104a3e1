import { Effect } from "effect"
import type { CloudEvent } from "../../playbookEvents/eventPublished.js"
import { Views as ViewsTag } from "../../ports/Views.js"
import { applyEvent, type DriveServices } from "./driveRun.js"
import {
  maxListeningRuns,
  type WorkflowListening,
  workflowListensPartition,
  workflowListensView
} from "./workflowListensProjection.js"

/**
 * Offers an event the playbook recorded to the runs listening for its type (workflow-format.md §8.1), each as an
 * `event_received` input marked offered, keyed by the record's id so a run takes it at most once; a listen whose
 * filters decline it leaves the run as it was. The run that emitted the event is not offered it.
 */
export const offerEvent = (
  org: string,
  playbook: string,
  event: CloudEvent,
  recordId: string,
  emittedBy?: string
): Effect.Effect<void, never, DriveServices> =>
  Effect.gen(function* () {
    const views = yield* ViewsTag
    const listening = yield* views.list(workflowListensView, workflowListensPartition(org, playbook), {
      direction: "ascending",
      limit: maxListeningRuns
    })
    const runs = listening
      .map((doc) => doc.data as WorkflowListening)
      .filter((run) => run.stream !== emittedBy && run.types.includes(event.type))
    yield* Effect.forEach(runs, (run) => applyEvent(run.stream, { ...event }, recordId, true), {
      concurrency: 8,
      discard: true
    })
  }).pipe(
    Effect.catchAllCause((cause) =>
      Effect.logWarning("RunLedger workflow engine: an event could not be offered", cause)
    )
  )
