import { jsonBytes } from "../../domain/utf8Bytes.js"
import type { WorkflowDocument } from "../../formats/workflow/WorkflowDocument.js"
import { tasksUnderWay } from "./frames.js"
import type { RunStateData } from "./Interpreter.js"
import type { RunState } from "./RunStateShape.js"
import type { StepEntry } from "./StepEntry.js"
import { diffState, type StatePatch } from "./statePatch.js"

/** The data a run holds at most (workflow-format.md §15): kept values, the document, 4 KiB per task under way. */
export const maxHeldBytes = 4 * 1_048_576

/** What each task under way counts for, beside the values it keeps. */
export const taskUnderWayBytes = 4_096

/** The largest change one input records, a value kept across a wait with the rest of the change (§15). */
export const maxChangeBytes = 1_572_864

/** The largest recorded history of a run, as JSON (§15). */
export const maxHistoryBytes = 512 * 1_048_576

const documentSizes = new WeakMap<WorkflowDocument, number>()

/** The size of a read document as JSON, measured once per document. */
const documentBytes = (document: WorkflowDocument): number => {
  const known = documentSizes.get(document)
  if (known !== undefined) return known
  const bytes = jsonBytes(document)
  documentSizes.set(document, bytes)
  return bytes
}

/** What the count of the recorded history can add to a state beyond its patch: a member and a safe integer. */
const countGrowthBytes = 64

/** An upper bound of each state's size as JSON that this process worked out, by the state's identity. */
const heldBounds = new WeakMap<object, number>()

/**
 * Whether a run holds more data than it may (§15, ADR 0297): its state as JSON, each value counted once, with its
 * document and 4 KiB for each task under way. A state grows by at most the JSON of the patch that made it (`change`
 * with the count's own change): while the bound this process keeps, the state before's plus that, is within the
 * limit, the state is not measured again (ADR 0414).
 */
export const holdsTooMuch = (
  document: WorkflowDocument,
  before: RunState | undefined,
  state: RunState,
  change: RecordedChange
): boolean => {
  const others =
    documentBytes(document) + taskUnderWayBytes * (state.root === undefined ? 0 : tasksUnderWay(state.root))
  const known = before === undefined ? 0 : heldBounds.get(before)
  if (known !== undefined) {
    const bound = known + change.bytes + countGrowthBytes
    if (bound + others <= maxHeldBytes) {
      heldBounds.set(state, bound)
      return false
    }
  }
  const bytes = jsonBytes(state)
  heldBounds.set(state, bytes)
  return bytes + others > maxHeldBytes && distinctJsonBytes(state) + others > maxHeldBytes
}

/** The change an input records: the state patch, and its size as JSON with the step entries. */
export interface RecordedChange {
  readonly patch: StatePatch
  readonly bytes: number
}

/** Values shorter than this as JSON are counted wherever they are: only larger ones are worth finding twice. */
const repeatBytes = 1_024

/**
 * The size of a value as JSON counting each large value it holds (1 KiB or more as JSON) once, however many places
 * hold it, by content: a value the engine keeps in several frames (the value a list hands on, a task's raw and
 * effective input) is one value kept (ADR 0297). Measured only past a bound, where the plain size is over it.
 */
export const distinctJsonBytes = (value: unknown): number => {
  const seen = new Set<string>()
  const textOf = (member: unknown): string | undefined => {
    let text: string | undefined
    if (Array.isArray(member)) text = `[${member.map((item) => textOf(item) ?? "null").join(",")}]`
    else if (typeof member === "object" && member !== null) {
      const fields = Object.entries(member).flatMap(([key, inner]) => {
        const innerText = textOf(inner)
        return innerText === undefined ? [] : [`${JSON.stringify(key)}:${innerText}`]
      })
      text = `{${fields.join(",")}}`
    } else text = JSON.stringify(member)
    if (text === undefined || text.length < repeatBytes) return text
    if (seen.has(text)) return "0"
    seen.add(text)
    return text
  }
  return jsonBytes(JSON.parse(textOf(value) ?? "null"))
}

/**
 * Whether a change keeps too large a value across a wait (§15): the value with the rest of the change over
 * 1,572,864 bytes, each value counted once.
 */
export const keepsTooMuch = (change: RecordedChange, steps: ReadonlyArray<StepEntry>): boolean =>
  change.bytes > maxChangeBytes && distinctJsonBytes(change.patch) + jsonBytes(steps) > maxChangeBytes

/** The change from `before` to `after` as one input records it. */
export const recordedChange = (
  before: RunState | undefined,
  after: RunState,
  steps: ReadonlyArray<StepEntry>
): RecordedChange => {
  const patch = diffState(before as RunStateData | undefined, after as unknown as RunStateData)
  return { patch, bytes: jsonBytes(patch) + jsonBytes(steps) }
}

/**
 * Counts a recorded change into the run's history (`counters.recorded`, ADR 0297), the count's own change added to
 * the patch as the diff would give it, so the state the patches rebuild is the live one.
 */
export const countRecorded = (before: RunState | undefined, after: RunState, change: RecordedChange): StatePatch => {
  const recorded = (before?.counters.recorded ?? 0) + change.bytes
  after.counters.recorded = recorded
  // A run recorded before the count was kept has no such member yet: the diff would add it at the end.
  const op = before !== undefined && before.counters.recorded === undefined ? "add" : "replace"
  return [...change.patch, { op, path: "/counters/recorded", value: recorded }]
}
