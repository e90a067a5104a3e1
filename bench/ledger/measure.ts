import { Effect } from "effect"

/** Runs `effect` and returns its value with the wall-clock seconds it took. */
export const timed = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<[A, number], E, R> =>
  Effect.suspend(() => {
    const start = performance.now()
    return Effect.map(effect, (value): [A, number] => [value, (performance.now() - start) / 1_000])
  })

/** The median of some numbers (the mean of the middle two for an even count). */
export const median = (values: ReadonlyArray<number>): number => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
