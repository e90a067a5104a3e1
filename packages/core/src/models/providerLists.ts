import { Clock, Effect, Option } from "effect"
import type { ListedModel, ModelListFailed, ModelProvider } from "../ports/ModelProvider.js"
import type { ModelProviderEntry } from "./ModelSettings.js"

/** How long a provider's list is kept, and how long after a failed read the provider is left alone. */
export const listBounds = { keepMillis: 5 * 60_000, quietMillis: 60_000 } as const

/** A provider's list as the cache answers it: the models, when they were read, and whether they are stale. */
export interface CachedList {
  readonly models?: ReadonlyArray<ListedModel>
  readonly readAt?: number
  /** The last read failed: the models are its last list, or absent. */
  readonly stale: boolean
}

interface Slot {
  readonly lock: Effect.Semaphore
  models?: ReadonlyArray<ListedModel>
  readAt?: number
  failedAt?: number
}

/**
 * Keeps each provider's list (MCP seed "How long a list is kept"): read the first time it is needed and kept five
 * minutes; calls that arrive during a read wait for it; a read that fails answers the last list read, marked stale,
 * and the provider is asked again only a minute later. The reason a read failed goes to the operator's log.
 */
export const providerLists = (port: ModelProvider["Type"]) => {
  const slots = new Map<string, Slot>()
  const slotOf = (name: string): Slot => {
    const existing = slots.get(name)
    if (existing !== undefined) return existing
    const slot: Slot = { lock: Effect.unsafeMakeSemaphore(1) }
    slots.set(name, slot)
    return slot
  }
  const read = (provider: ModelProviderEntry, slot: Slot, now: number) =>
    Effect.match(port.list(provider), {
      onSuccess: (models) => {
        slot.models = models
        slot.readAt = now
        slot.failedAt = undefined
        return Option.none<ModelListFailed>()
      },
      onFailure: (failure) => {
        slot.failedAt = now
        return Option.some(failure)
      }
    }).pipe(Effect.tap((failure) => (Option.isSome(failure) ? Effect.logWarning(failure.value.detail) : Effect.void)))
  return (provider: ModelProviderEntry): Effect.Effect<CachedList> => {
    const slot = slotOf(provider.name)
    return slot.lock.withPermits(1)(
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const fresh = slot.readAt !== undefined && now - slot.readAt < listBounds.keepMillis
        const quiet = slot.failedAt !== undefined && now - slot.failedAt < listBounds.quietMillis
        if (!fresh && !quiet) yield* read(provider, slot, now)
        const stale = slot.failedAt !== undefined && (slot.readAt === undefined || slot.failedAt > slot.readAt)
        return {
          stale,
          ...(slot.models === undefined ? {} : { models: slot.models }),
          ...(slot.readAt === undefined ? {} : { readAt: slot.readAt })
        }
      })
    )
  }
}
