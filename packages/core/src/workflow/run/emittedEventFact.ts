import type { NewFactMetadata } from "../../domain/Fact.js"
import type { DraftFact } from "../../ledger/decide.js"
import { type CloudEvent, eventPublished, eventPublishedData } from "../../playbookEvents/eventPublished.js"
import type { RunEvent } from "../engine/WorkflowInput.js"

/**
 * The `event_published` of an event a workflow's `emit` step recorded (workflow-format.md §8.4): its id derived
 * from the emit's call key, `specversion` 1.0, naming the emitting run and workflow version in its metadata, one
 * level deeper than the run.
 */
export const emittedEventFact = (event: RunEvent, metadata: Partial<NewFactMetadata>): DraftFact => {
  const kept = { specversion: "1.0", ...event } as CloudEvent
  return {
    type: eventPublished,
    data: eventPublishedData(kept, ["id", "specversion"]),
    metadata: { ...metadata, depth: (metadata.depth ?? 0) + 1 }
  }
}
