import { Clock, Effect } from "effect"
import { foldRequest, noRequest } from "../interactions/foldRequest.js"
import { runAddressOf } from "../interactions/runAddress.js"
import { runDecider } from "../ledger/decide.js"
import { appendCarryingCaller } from "../workflow/run/appendCarryingCaller.js"
import { requestEnding } from "./requestEnding.js"

/**
 * Ends a waiting run whose request was answered, cancelled or expired, as a decider on the run's stream: the
 * ending is appended at the version the host read, so when several instances settle the same run at once exactly
 * one ending lands, and the others decide again, find the run ended and record nothing. Whether it ended the run.
 */
export const settleRun = (stream: string) =>
  Effect.gen(function* () {
    const address = runAddressOf(stream)
    if (address === undefined) return false
    const { facts } = yield* runDecider({
      stream,
      initial: noRequest,
      fold: foldRequest,
      decide: (state) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const ending = requestEnding(state, now)
          return ending === undefined ? [] : [ending]
        }),
      by: `playbook:${address.playbook}`,
      what: `the run ${address.runId}`,
      append: appendCarryingCaller
    })
    return facts.length > 0
  })
