import { Clock, Duration, Effect, Layer } from "effect"

/** One sleeper of a shifted clock: when it wakes, in shifted milliseconds, and how to wake it. */
interface Sleeper {
  readonly deadline: number
  readonly wake: () => void
  timer: ReturnType<typeof setTimeout>
}

/**
 * A clock on real time plus an offset a test moves forward (`shift`), for a runtime whose store needs real time
 * to pass (the Postgres store's LISTEN heartbeat cannot run under a `TestClock`). Sleeps end at real time as
 * usual, and a shift at once ends every sleep it carried past its deadline — so a host sleeping until a request
 * expires wakes when the test moves the clock past it.
 */
export const makeShiftedClock = () => {
  let offset = 0
  const sleepers = new Set<Sleeper>()
  const now = () => Date.now() + offset
  const arm = (sleeper: Sleeper) => {
    clearTimeout(sleeper.timer)
    const left = sleeper.deadline - now()
    if (left <= 0) {
      sleepers.delete(sleeper)
      sleeper.wake()
    } else sleeper.timer = setTimeout(() => arm(sleeper), left)
  }
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: now,
    currentTimeMillis: Effect.sync(now),
    unsafeCurrentTimeNanos: () => BigInt(now()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(now()) * 1_000_000n),
    sleep: (duration) =>
      Effect.async<void>((resume) => {
        const sleeper: Sleeper = {
          deadline: now() + Duration.toMillis(duration),
          wake: () => resume(Effect.void),
          timer: setTimeout(() => undefined, 0)
        }
        sleepers.add(sleeper)
        arm(sleeper)
        return Effect.sync(() => {
          clearTimeout(sleeper.timer)
          sleepers.delete(sleeper)
        })
      })
  }
  return {
    /** The clock as a layer: every fiber of a runtime built with it, the host's too, reads and sleeps on it. */
    layer: Layer.setClock(clock),
    /** Moves the clock forward and ends every sleep now past its deadline. */
    shift: (duration: Duration.DurationInput) => {
      offset += Duration.toMillis(duration)
      for (const sleeper of [...sleepers]) arm(sleeper)
    }
  }
}
