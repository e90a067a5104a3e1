import { Effect } from "effect"
import type { Caller } from "../domain/Caller.js"
import type { Rejection } from "../domain/Rejection.js"
import { readPartition } from "../ledger/readPartition.js"
import type { PlaybookRecord } from "../playbooks/PlaybookRecord.js"
import { playbooksView } from "../playbooks/playbooksProjection.js"
import type { Views } from "../ports/Views.js"

/** What of the org's activity a caller reads: the org's playbooks as they stand, and which items are theirs to see. */
export interface ActivityAccess {
  /** The org's playbooks and whether each is active or retired. */
  readonly playbooks: ReadonlyMap<string, PlaybookRecord["status"]>
  /**
   * Whether the caller sees an item: one of an active playbook the caller may access, or a comment of the
   * organization's own for a caller who may access every playbook. A retired playbook has no rows.
   */
  readonly visible: (item: { readonly playbook: string | null }) => boolean
}

/** Reads the org's playbooks and what a caller sees of its activity. */
export const activityAccess = (org: string, caller: Caller): Effect.Effect<ActivityAccess, Rejection, Views> =>
  Effect.map(readPartition(playbooksView, org), (docs) => {
    const playbooks = new Map(docs.map((doc) => [doc.id, (doc.data as PlaybookRecord).status]))
    return {
      playbooks,
      visible: ({ playbook }) =>
        playbook === null
          ? caller.actsOnEveryPlaybook
          : playbooks.get(playbook) === "active" && caller.mayAccess(playbook)
    }
  })
