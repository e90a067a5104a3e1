import { Context } from "effect"

/** How requests are delivered through tools; an embedder sets them with `Layer.succeed(DeliverySettings, …)`. */
export interface DeliverySettingsShape {
  /** The attempts a request gets, the first included (function-formats.md §3.3: 5). */
  readonly attempts: number
  /** How long after a failed attempt the next starts, by the failed attempt's number (1, 2, 4 and 8 minutes). */
  readonly delaysMillis: ReadonlyArray<number>
  /** The longest delay a server's `Retry-After` is honoured up to (8 minutes). */
  readonly retryAfterCapMillis: number
  /** How long an attempt may go on: it is cut then, and one its instance left open counts as failed (`lost`). */
  readonly attemptMillis: number
  /** How often the delivery host looks at every due delivery even when no wake-up came: the backstop sweep. */
  readonly sweepMillis: number
  /** How many attempts one instance makes at once. */
  readonly concurrency: number
}

/**
 * The settings of deliveries, with the defaults of function-formats.md §3.3: 5 attempts, 1, 2, 4 and 8 minutes
 * apart, `Retry-After` honoured up to 8 minutes, an attempt cut (or counted lost) after 1 minute; a sweep every
 * 30 s; 16 attempts at once.
 */
export class DeliverySettings extends Context.Reference<DeliverySettings>()("@runledger/core/DeliverySettings", {
  defaultValue: (): DeliverySettingsShape => ({
    attempts: 5,
    delaysMillis: [60_000, 120_000, 240_000, 480_000],
    retryAfterCapMillis: 480_000,
    attemptMillis: 60_000,
    sweepMillis: 30_000,
    concurrency: 16
  })
}) {}
