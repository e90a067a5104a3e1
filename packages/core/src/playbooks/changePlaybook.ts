import { Effect } from "effect"
import type { Caller } from "../domain/Caller.js"
import { forbidden, notFound, type Rejection } from "../domain/Rejection.js"
import { type DraftFact, runDecider } from "../ledger/decide.js"
import type { Ids } from "../ports/Ids.js"
import type { Ledger } from "../ports/Ledger.js"
import { foldPlaybook } from "./foldPlaybook.js"
import type { PlaybookRecord } from "./PlaybookRecord.js"
import { playbookStream } from "./playbookFacts.js"

/**
 * Changes one playbook of the org through its stream: refuses a playbook the caller may not reach or the org
 * does not have, decides the facts from the playbook as it stands, and returns the playbook after them.
 */
export const changePlaybook = (
  org: string,
  id: string,
  caller: Caller,
  decide: (playbook: PlaybookRecord) => Effect.Effect<ReadonlyArray<DraftFact>, Rejection>
): Effect.Effect<PlaybookRecord, Rejection, Ledger | Ids> =>
  Effect.gen(function* () {
    const missing = notFound(`The org ${org} has no playbook ${id}.`)
    if (!caller.mayAccess(id))
      return yield* Effect.fail(forbidden(`This credential may not act on the playbook ${id}.`))
    const { state } = yield* runDecider<PlaybookRecord | undefined, Rejection, never>({
      stream: playbookStream(org, id),
      initial: undefined,
      fold: foldPlaybook,
      decide: (playbook) => (playbook === undefined ? Effect.fail(missing) : decide(playbook)),
      by: caller.id,
      what: "the org's playbooks"
    })
    return state!
  })
