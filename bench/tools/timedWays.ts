import { mainThreadOnCpuMillis } from "../shared/threadCpu.js"

/** One way of calling the tool, the milliseconds each of its calls took, and the main thread's CPU they used. */
export interface Timed {
  readonly one: (index: number) => Promise<unknown>
  readonly times: Array<number>
  /** Milliseconds the main thread spent on a core during the calls (Linux), summed. */
  cpu?: number
}

/** A way that calls `one`, with nothing timed yet. */
export const timed = (one: (index: number) => Promise<unknown>): Timed => ({ one, times: [] })

/** Times `count` rounds, each calling every way once in turn: the ways share the machine's load call by call. */
export const interleave = async (count: number, ways: ReadonlyArray<Timed>): Promise<void> => {
  for (let index = 0; index < count; index++)
    for (const way of ways) {
      const cpu = mainThreadOnCpuMillis()
      const at = performance.now()
      await way.one(index)
      way.times.push(performance.now() - at)
      const after = mainThreadOnCpuMillis()
      if (cpu !== undefined && after !== undefined) way.cpu = (way.cpu ?? 0) + after - cpu
    }
}

/** The middle value of some numbers (the upper one of the two middle values of an even count). */
export const median = (values: ReadonlyArray<number>): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/** What one way measured in one repetition. */
export interface Figures {
  /** Calls per second of the way's own time. */
  readonly perSecond: number
  /** The median milliseconds per call. */
  readonly p50: number
  /** The main thread's CPU milliseconds per call (the in-process MCP fake's included, as in every way); NaN off Linux. */
  readonly cpu: number
}

/** The figures of a way's calls. */
export const figures = (way: Timed): Figures => ({
  perSecond: way.times.length / (way.times.reduce((sum, time) => sum + time, 0) / 1000),
  p50: median(way.times),
  cpu: way.cpu === undefined ? Number.NaN : way.cpu / way.times.length
})
