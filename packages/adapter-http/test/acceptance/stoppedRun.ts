import { randomUUID } from "node:crypto"
import { Ledger } from "@runledger/core"
import { Effect } from "effect"
import type { AcceptanceServer } from "./storeServers.js"

/** The stream of a run of the playbook whose HTTP path is `base` (`/v1/orgs/<org>/playbooks/<id>`). */
export const runStreamOf = (base: string, runId: string): string =>
  `${base.replace("/v1/orgs/", "playbook/").replace("/playbooks/", "/")}/runs/${runId}`

/**
 * A run that stopped half-way, as a server that stopped leaves it: the first `count` facts of the run `ran`,
 * recorded under a new run id (`runId` when given) at `at` (an hour ago unless given), ready for a request under
 * that id. Answers the new id.
 */
export const stoppedRun = async (
  server: AcceptanceServer,
  base: string,
  ran: string,
  count: number,
  at = new Date(Date.now() - 3_600_000),
  runId: string = randomUUID()
): Promise<string> => {
  await server.runtime.runPromise(
    Effect.gen(function* () {
      const ledger = yield* Ledger
      const facts = (yield* ledger.readStream(runStreamOf(base, ran))).slice(0, count)
      const copied = facts.map(({ type, data, metadata }) => {
        const { stream: _stream, position: _position, global_position: _global, ...kept } = metadata
        return {
          id: randomUUID(),
          type,
          data,
          metadata: { ...kept, run_id: runId, correlation_id: runId, at: at.toISOString() }
        }
      })
      yield* ledger.append([{ stream: runStreamOf(base, runId), expected: 0, facts: copied }])
    })
  )
  return runId
}
