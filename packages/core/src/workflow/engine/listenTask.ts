import { Effect } from "effect"
import type { EventFilter } from "../../formats/workflow/EventFilter.js"
import type { TaskBody } from "../../formats/workflow/Task.js"
import type { ListenFilter } from "./EngineOutput.js"
import { evaluateCondition } from "./evaluation.js"
import type { Raised } from "./faults.js"
import type { BodyOutcome, Signal, Step } from "./frames.js"
import { jsonEqual } from "./jsonValues.js"
import { executionKey, type Machine } from "./Machine.js"
import { recordWaiting } from "./stepVariables.js"
import type { RunEvent } from "./WorkflowInput.js"

type ListenBody = Extract<TaskBody, { kind: "listen" }>

/**
 * Whether an event fits a filter (workflow-format.md §8.2): every literal attribute equal (JSON deep equality),
 * every expression holding with the attribute as `$data`. A failing expression raises at the listen for a sent
 * event; an offered event is simply declined.
 */
export const filterMatches = (
  machine: Machine,
  filter: EventFilter,
  event: RunEvent,
  instance: string,
  offered: boolean
): Effect.Effect<boolean, Raised> =>
  Effect.gen(function* () {
    for (const [name, expected] of filter.attributes) {
      const actual = event[name]
      if (expected._tag === "Literal") {
        if (actual === undefined || !jsonEqual(expected.value, actual)) return false
        continue
      }
      const check = evaluateCondition(machine, expected, { $data: actual ?? null }, instance)
      const fits = offered ? yield* Effect.orElseSucceed(check, () => false) : yield* check
      if (!fits) return false
    }
    return true
  })

/** The type a filter names literally (non-empty text), which registers it for playbook events (§8.1). */
const literalType = (filter: EventFilter): string | undefined => {
  const type = filter.attributes.find(([name]) => name === "type")?.[1]
  return type?._tag === "Literal" && typeof type.value === "string" && type.value !== "" ? type.value : undefined
}

/**
 * The slot an event fills in a listen (§8.1), or -1: `one`/`any` fill their one slot with an event fitting any
 * filter; `all` fills the first empty slot whose filter the event fits. An offered playbook event is heard only by
 * filters whose type is written literally.
 */
export const slotFor = (
  machine: Machine,
  body: ListenBody,
  taken: ReadonlyArray<RunEvent | null>,
  event: RunEvent,
  instance: string,
  offered: boolean
): Effect.Effect<number, Raised> =>
  Effect.gen(function* () {
    for (const [index, filter] of body.filters.entries()) {
      const slot = body.to === "all" ? index : 0
      if (taken[slot] !== null || (offered && literalType(filter) === undefined)) continue
      if (yield* filterMatches(machine, filter, event, instance, offered)) return slot
    }
    return -1
  })

/** The filters a listen registers for playbook events: those whose `type` is written literally (§8.1). */
const literalFilters = (body: ListenBody): ReadonlyArray<ListenFilter> =>
  body.filters.flatMap((filter) => {
    const type = literalType(filter)
    return type === undefined ? [] : [{ reference: filter.reference, type }]
  })

/** What a satisfied listen outputs: each taken event's data, or the whole event (decision W9). */
const listenOutput = (body: ListenBody, taken: ReadonlyArray<RunEvent | null>): unknown =>
  taken.map((event) => (body.read === "data" ? (event?.data ?? null) : event))

/**
 * `listen` (§8.1): each slot first takes the earliest fitting event waiting in the inbox; a listen satisfied so
 * completes at once and never registers, otherwise it waits and registers its literal filters.
 */
export const startListen = (step: Step, body: ListenBody): Effect.Effect<BodyOutcome, Raised> =>
  Effect.gen(function* () {
    const { machine, task, frame } = step
    const { state } = machine
    const taken: Array<RunEvent | null> = body.to === "all" ? body.filters.map(() => null) : [null]
    for (const slot of taken.keys()) {
      for (const [position, event] of state.inbox.entries()) {
        const filters = body.to === "all" ? [body.filters[slot]!] : body.filters
        const fits = yield* Effect.reduce(filters, false, (found, filter) =>
          found ? Effect.succeed(true) : filterMatches(machine, filter, event, task.reference, false)
        )
        if (!fits) continue
        taken[slot] = event
        state.inbox.splice(position, 1)
        break
      }
    }
    if (taken.every((event) => event !== null)) return { tag: "done", value: listenOutput(body, taken) }
    const key = executionKey(machine, task.reference, frame.run)
    const filters = literalFilters(body)
    const registered = filters.length > 0
    state.listens[key] = { frame: frame.id, reference: task.reference, filters }
    if (registered) machine.outputs.push({ kind: "listen", key, filters })
    frame.body = { kind: "listen", key, taken, registered, waits: 1 }
    recordWaiting(step, "event")
    return { tag: "waiting" }
  })

/** An event taken by a waiting listen: its slot filled; done once every slot is, else waiting again. */
export const resumeListen = (step: Step, body: ListenBody, signal: Signal): Effect.Effect<BodyOutcome, Raised> => {
  const { machine, frame } = step
  const state = frame.body
  if (state?.kind !== "listen") return Effect.succeed({ tag: "waiting" })
  const close = () => {
    if (state.registered) machine.outputs.push({ kind: "unlisten", key: state.key })
    delete machine.state.listens[state.key]
  }
  if (signal.kind === "event_failed") {
    close()
    return Effect.succeed({ tag: "raised", fault: signal.fault })
  }
  if (signal.kind !== "event") return Effect.succeed({ tag: "waiting" })
  state.taken[signal.slot] = signal.event
  if (state.taken.every((event) => event !== null)) {
    close()
    return Effect.succeed({ tag: "done", value: listenOutput(body, state.taken) })
  }
  state.waits += 1
  recordWaiting(step, "event", { times: state.waits })
  return Effect.succeed({ tag: "waiting" })
}
