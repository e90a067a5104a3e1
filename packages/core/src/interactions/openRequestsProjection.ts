import type { Projection } from "../ports/Views.js"
import { closesRequest, runEndingTypes } from "./interactionFacts.js"
import { runAddressOf } from "./runAddress.js"

/** The view counting each playbook's open requests: partition `playbooks`, one document per playbook. */
export const openRequestsView = "open_requests"

/** The partition of the counts. */
export const openRequestsPartition = "playbooks"

/** The id of a playbook's count. */
export const openRequestsId = (org: string, playbook: string): string => `${org}/${playbook}`

/** A playbook's count of open requests. */
export interface OpenRequests {
  readonly open: number
}

/**
 * Counts a playbook's open requests for the cap (`requests_full`): one more per `interaction_requested`, one
 * fewer per run ending that closes a request (the host's endings carry the request as their record).
 */
export const openRequestsProjection: Projection = {
  view: openRequestsView,
  types: ["interaction_requested", ...runEndingTypes],
  keys: (fact) => {
    const address = runAddressOf(fact.metadata.stream)
    if (address === undefined || (fact.type !== "interaction_requested" && !closesRequest(fact.data))) return []
    return [
      { view: openRequestsView, partition: openRequestsPartition, id: openRequestsId(address.org, address.playbook) }
    ]
  },
  apply: (current, fact, key) => {
    const open =
      ((current?.data as OpenRequests | undefined)?.open ?? 0) + (fact.type === "interaction_requested" ? 1 : -1)
    return open <= 0 ? undefined : { id: key.id, sort: key.id, data: { open } }
  }
}
