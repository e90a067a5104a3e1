import { Context } from "effect"

/** How replies are read back; an embedder sets them with `Layer.succeed(ReplySettings, …)`. */
export interface ReplySettingsShape {
  /**
   * The delay before each read after the conversation's last activity (a delivery into it, or a reply found), by
   * the read's number since then; the last holds for every later read (function-formats.md §3.5).
   */
  readonly delaysMillis: ReadonlyArray<number>
  /** The longest delay a server's `Retry-After` pushes the next read to. */
  readonly longestRetryAfterMillis: number
  /** How often the replies host looks at the open conversations. */
  readonly tickMillis: number
  /** The most conversations read per tick, and at once. */
  readonly perTick: number
  readonly concurrency: number
}

/** 5, 10, 20 and 40 s, then every 60 s up to the 18th read, then every 300 s (§3.5). */
const cadence = [5_000, 10_000, 20_000, 40_000, ...Array.from({ length: 14 }, () => 60_000), 300_000]

/**
 * The settings of reading replies, with the defaults of function-formats.md §3.5: the cadence; a server's
 * `Retry-After` honoured up to an hour; a look every second; at most 256 reads a tick, 16 at once.
 */
export class ReplySettings extends Context.Reference<ReplySettings>()("@runledger/core/ReplySettings", {
  defaultValue: (): ReplySettingsShape => ({
    delaysMillis: cadence,
    longestRetryAfterMillis: 3_600_000,
    tickMillis: 1_000,
    perTick: 256,
    concurrency: 16
  })
}) {}
