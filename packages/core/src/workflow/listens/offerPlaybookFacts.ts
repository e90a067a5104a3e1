import { Effect, Option } from "effect"
import type { Fact } from "../../domain/Fact.js"
import { isPlaybookEvent } from "../../events/isPlaybookEvent.js"
import { Ledger, type LedgerPosition } from "../../ports/Ledger.js"
import { playbookStreamsPrefix } from "../../runs/runFacts.js"
import type { RunEvent } from "../engine/WorkflowInput.js"
import { applyEvent } from "../run/driveRun.js"
import { anyListen } from "../run/workflowListensProjection.js"
import { eventOfFact } from "../triggers/eventOfFact.js"
import { type ListeningTask, listeningTasks } from "./listeningTasks.js"

/** How many facts one page of the cursor reads. */
const pageSize = 256

/** How many runs are offered one fact at once. */
const offersAtOnce = 8

/** How far an instance offered a playbook's facts: the last fact it read, as the ledger places it. */
export interface ListenCursor {
  readonly position: LedgerPosition
  readonly global_position: number
}

/**
 * The runs a fact is offered to, each with the keys of its listens that hear it (workflow-format.md §8.1, §8.3): a
 * listen opened before the fact was recorded whose literal types name the fact's type, in a run the fact is not
 * about (a run never hears its own facts, nor the events it emitted).
 */
export const offersOf = (
  fact: Fact,
  type: string,
  tasks: ReadonlyArray<ListeningTask>
): ReadonlyMap<string, ReadonlyArray<string>> => {
  const byRun = new Map<string, Array<string>>()
  for (const task of tasks) {
    if (task.run_id === fact.metadata.run_id || task.since >= fact.metadata.global_position) continue
    if (task.types.includes(type)) byRun.set(task.stream, [...(byRun.get(task.stream) ?? []), task.key])
  }
  return byRun
}

/** Offers one playbook fact, as event filters see it, to the listens that hear it, keyed by its record id. */
const offerFact = (fact: Fact, tasks: ReadonlyArray<ListeningTask>) => {
  const event = eventOfFact(fact) as unknown as RunEvent
  return Effect.forEach(
    offersOf(fact, event.type, tasks),
    ([stream, keys]) => applyEvent(stream, event, fact.id, true, keys.includes(anyListen) ? undefined : keys),
    { concurrency: offersAtOnce, discard: true }
  )
}

/** Where the next page starts: after the cursor, or after the record that opened the earliest listen when later. */
const startOf = (cursor: ListenCursor | undefined, earliest: ListeningTask) =>
  Effect.gen(function* () {
    if (cursor !== undefined && cursor.global_position >= earliest.since) return cursor.position
    const opened = yield* Effect.flatMap(Ledger, (ledger) => ledger.readFact(earliest.since_id))
    return Option.isSome(opened) ? opened.value.position : cursor?.position
  })

/**
 * Offers a playbook's facts to its listening runs (ADR 0295), in global order, page by page from `cursor` (this
 * instance's, kept in memory) or from the record that opened the earliest open listen: each playbook event —
 * published, emitted, or a fact the playbook recorded — goes to the open listens that hear it as an offered
 * `event_received` keyed by its record id, which a run takes once however many instances offer it. Nothing is read
 * while no run listens. The cursor after the last page, and whether any run listened.
 */
export const offerPlaybookFacts = (org: string, playbook: string, cursor: ListenCursor | undefined) =>
  Effect.gen(function* () {
    const ledger = yield* Ledger
    let moved = cursor
    for (;;) {
      const tasks = yield* listeningTasks(org, playbook)
      const earliest = tasks[0]
      if (earliest === undefined) return { listening: false, cursor: moved }
      const from = yield* startOf(moved, earliest)
      const page = yield* ledger.readAll({
        direction: "forward",
        limit: pageSize,
        ...(from === undefined ? {} : { from }),
        filter: { streamPrefix: playbookStreamsPrefix(org, playbook) }
      })
      for (const { fact } of page) if (isPlaybookEvent(fact)) yield* offerFact(fact, tasks)
      const last = page[page.length - 1]
      if (last !== undefined) moved = { position: last.position, global_position: last.fact.metadata.global_position }
      if (page.length < pageSize) return { listening: true, cursor: moved }
    }
  })
