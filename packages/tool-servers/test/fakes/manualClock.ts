import { Clock, Duration, Effect } from "effect"

/** A clock whose time moves only when the test moves it, and which tells when something sleeps. */
export interface ManualClock {
  readonly clock: Clock.Clock
  /** Moves the time forward and wakes every sleep now past its deadline. */
  readonly advance: (millis: number) => void
  /** Settles when something next starts a sleep of `millis` (the session pool's sweep does after each round). */
  readonly nextSleep: (millis: number) => Promise<void>
}

/** A clock standing at the time it was made until the test moves it. */
export const makeManualClock = (): ManualClock => {
  let now = Date.now()
  const sleepers = new Set<{ readonly deadline: number; readonly wake: () => void }>()
  const waiting: Array<{ readonly millis: number; readonly settle: () => void }> = []
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => now,
    currentTimeMillis: Effect.sync(() => now),
    unsafeCurrentTimeNanos: () => BigInt(now) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(now) * 1_000_000n),
    sleep: (duration) =>
      Effect.async<void>((resume) => {
        const millis = Duration.toMillis(duration)
        const sleeper = { deadline: now + millis, wake: () => resume(Effect.void) }
        sleepers.add(sleeper)
        for (const waiter of waiting.filter((waiter) => waiter.millis === millis)) {
          waiting.splice(waiting.indexOf(waiter), 1)
          waiter.settle()
        }
        return Effect.sync(() => sleepers.delete(sleeper))
      })
  }
  return {
    clock,
    advance: (millis) => {
      now += millis
      for (const sleeper of [...sleepers].filter((sleeper) => sleeper.deadline <= now)) {
        sleepers.delete(sleeper)
        sleeper.wake()
      }
    },
    nextSleep: (millis) => new Promise<void>((settle) => waiting.push({ millis, settle }))
  }
}
