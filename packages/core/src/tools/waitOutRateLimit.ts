import { Clock, Duration, Effect } from "effect"
import type {
  ToolAnswer,
  ToolCall,
  ToolCallFailed,
  ToolServerFailed,
  ToolServers,
  ToolServerUnknown
} from "../ports/ToolServers.js"
import { toolServerLimits } from "./ToolServerEntry.js"

/** The longest delay a tool server's 429 may ask that a call waits out (function-formats.md §2.6, §5.2.4): 10 s. */
const longestWaitedRetryMs = 10_000

/**
 * Sends a call, and once more when its server answered 429 asking for 10 s or less and the call's budget (its time
 * limit, 30 s) still holds the wait; the second send has what is left of the budget. A 429 means nothing reached the
 * tool, so sending again does nothing twice. A longer delay, or a second 429, fails with the server's `Retry-After` (ADR 0307).
 */
export const callWaitingOutRateLimit = (
  port: ToolServers["Type"],
  call: ToolCall
): Effect.Effect<ToolAnswer, ToolServerFailed | ToolCallFailed | ToolServerUnknown> =>
  Effect.gen(function* () {
    const budget = call.timeoutMs ?? toolServerLimits.callMs
    const began = yield* Clock.currentTimeMillis
    return yield* Effect.catchTag(port.call(call), "ToolServerFailed", (failure) =>
      Effect.gen(function* () {
        const wait = failure.retryAfterMs
        if (failure.because !== "rate_limited" || wait === undefined || wait > longestWaitedRetryMs)
          return yield* Effect.fail(failure)
        const left = budget - ((yield* Clock.currentTimeMillis) - began) - wait
        if (left <= 0) return yield* Effect.fail(failure)
        yield* Effect.sleep(Duration.millis(wait))
        return yield* port.call({ ...call, timeoutMs: left })
      })
    )
  })
