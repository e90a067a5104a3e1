/** Latencies (milliseconds) of `count` calls with `concurrency` in flight, and the wall-clock seconds they took. */
export const drive = async (
  count: number,
  concurrency: number,
  call: (index: number) => Promise<void>
): Promise<{ readonly latencies: ReadonlyArray<number>; readonly seconds: number }> => {
  const latencies: Array<number> = []
  let next = 0
  const lane = async () => {
    while (next < count) {
      const index = next++
      const start = performance.now()
      await call(index)
      latencies.push(performance.now() - start)
    }
  }
  const start = performance.now()
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane))
  return { latencies, seconds: (performance.now() - start) / 1_000 }
}

/** The `fraction` quantile (nearest rank) of some numbers. */
export const quantile = (values: ReadonlyArray<number>, fraction: number): number => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))]!
}
