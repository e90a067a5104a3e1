import { Effect } from "effect"

/** One lock per run stream, so this process applies a run's inputs one at a time (other processes are held off by
 * the ledger's expected versions). */
export interface RunLocks {
  readonly withLock: <A, E, R>(stream: string, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}

/** Locks kept only while held or awaited: a run nobody drives costs nothing. */
export const makeRunLocks = (): RunLocks => {
  const held = new Map<string, { semaphore: Effect.Semaphore; users: number }>()
  return {
    withLock: (stream, effect) =>
      Effect.suspend(() => {
        let entry = held.get(stream)
        if (entry === undefined) {
          entry = { semaphore: Effect.unsafeMakeSemaphore(1), users: 0 }
          held.set(stream, entry)
        }
        const lock = entry
        lock.users++
        return lock.semaphore
          .withPermits(1)(effect)
          .pipe(
            Effect.ensuring(
              Effect.sync(() => {
                lock.users--
                if (lock.users === 0) held.delete(stream)
              })
            )
          )
      })
  }
}
