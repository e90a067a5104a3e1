import type { Fact } from "../domain/Fact.js"
import type { Projection } from "../ports/Views.js"
import { closesRequest, runEndingTypes } from "./interactionFacts.js"
import { runAddressOf } from "./runAddress.js"

/** The view counting each playbook's open requests: partition `playbooks`, one document per playbook. */
export const openRequestsView = "open_requests"

/** The partition of the counts. */
export const openRequestsPartition = "playbooks"

/** The id of a playbook's count. */
export const openRequestsId = (org: string, playbook: string): string => `${org}/${playbook}`

/** A playbook's count of open requests, and the version of its slots stream that count was read at. */
export interface OpenRequests {
  readonly open: number
  /** The last position of the playbook's `requests/<org>/<playbook>` stream: a start claims a slot at it. */
  readonly slots: number
}

/** The fact a request's start appends to its playbook's slots stream, in the same append as the request. */
export const requestSlotTaken = "request_slot_taken"

/**
 * The stream of a playbook's request slots: one `request_slot_taken` per request opened, appended at the version
 * the start read with the count, so two starts that read the same count cannot both land (ADR 0190). It lies
 * outside the playbook's streams, so the playbook's events do not list it.
 */
export const requestSlotsStream = (org: string, playbook: string): string => `requests/${org}/${playbook}`

/** The playbook whose count a fact changes: a slot taken, or the ending of a run that closes a request. */
const playbookOf = (fact: Fact): { readonly org: string; readonly playbook: string } | undefined => {
  if (fact.type !== requestSlotTaken) return closesRequest(fact.data) ? runAddressOf(fact.metadata.stream) : undefined
  const [root, org, playbook, ...rest] = fact.metadata.stream.split("/")
  return root === "requests" && org && playbook && rest.length === 0 ? { org, playbook } : undefined
}

/**
 * Counts a playbook's open requests for the cap (`requests_full`): one more per `request_slot_taken` (whose
 * position is kept as `slots`), one fewer per run ending that closes a request (the host's endings carry the
 * request as their record). The document stays at zero: it holds the slots' version.
 */
export const openRequestsProjection: Projection = {
  view: openRequestsView,
  types: [requestSlotTaken, ...runEndingTypes],
  keys: (fact) => {
    const playbook = playbookOf(fact)
    return playbook === undefined
      ? []
      : [
          {
            view: openRequestsView,
            partition: openRequestsPartition,
            id: openRequestsId(playbook.org, playbook.playbook)
          }
        ]
  },
  apply: (current, fact, key) => {
    const counted = (current?.data as OpenRequests | undefined) ?? { open: 0, slots: 0 }
    const data: OpenRequests =
      fact.type === requestSlotTaken
        ? { open: counted.open + 1, slots: fact.metadata.position }
        : { open: Math.max(0, counted.open - 1), slots: counted.slots }
    return { id: key.id, sort: key.id, data }
  }
}
