import { Context } from "effect"

/** How requests and their host behave; an embedder sets them with `Layer.succeed(InteractionSettings, …)`. */
export interface InteractionSettingsShape {
  /** The most open requests a playbook holds; a run past it is `unavailable`, kind `requests_full`. */
  readonly openRequestCap: number
  /** How often the host looks at every due timer even when no wake-up came: the backstop sweep. */
  readonly sweepMillis: number
  /** How many waiting runs the host ends at once. */
  readonly concurrency: number
}

/** The settings of requests and the host, with their defaults: 10,000 open requests, a sweep every 30 s. */
export class InteractionSettings extends Context.Reference<InteractionSettings>()(
  "@runledger/core/InteractionSettings",
  { defaultValue: (): InteractionSettingsShape => ({ openRequestCap: 10_000, sweepMillis: 30_000, concurrency: 16 }) }
) {}
