import { cutText } from "../../formats/cutText.js"
import type { TaskFrame } from "./RunStateShape.js"
import type { StepEntry, StepError, StepOutcome } from "./StepEntry.js"

/** What moved a step: the input, or the index of an earlier entry of the same input. */
export type Cause = StepEntry["caused_by"]

/** What an entry adds besides its outcome. */
export interface EntryDetails {
  readonly error?: StepError
  readonly waits_for?: StepEntry["waits_for"]
  readonly child?: string
  readonly times?: number
}

/**
 * The step entries one input moves (workflow-format.md §16.2): one per task execution, a later outcome replacing
 * an earlier one in place (keeping its position and cause).
 */
export class StepRecorder {
  readonly entries: Array<StepEntry> = []
  private readonly positions = new Map<string, number>()

  /** Records an outcome of a frame; returns the entry's index, the cause of what follows it. */
  record(frame: TaskFrame, name: string, outcome: StepOutcome, cause: Cause, details: EntryDetails = {}): number {
    const key = `${frame.reference}#${frame.run}`
    const at = this.positions.get(key)
    const entry: StepEntry = {
      reference: frame.reference,
      run: frame.run,
      outcome,
      name: cutText(name, 256, ""),
      times: details.times ?? 1,
      caused_by: at === undefined ? cause : this.entries[at]!.caused_by,
      ...(details.error === undefined ? {} : { error: details.error }),
      ...(details.waits_for === undefined ? {} : { waits_for: details.waits_for }),
      ...(details.child === undefined ? {} : { child: details.child })
    }
    if (at !== undefined) {
      this.entries[at] = entry
      return at
    }
    this.entries.push(entry)
    this.positions.set(key, this.entries.length - 1)
    return this.entries.length - 1
  }
}
