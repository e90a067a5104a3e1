import { readFileSync } from "node:fs"

/**
 * The time the main thread has spent on a core so far, in milliseconds at nanosecond resolution, from
 * `/proc/self/task/<pid>/schedstat` (its first field); `undefined` where there is no such file. A call's share of
 * it does not count the time the thread waited for a core, as wall time on a loaded machine does.
 */
export const mainThreadOnCpuMillis = (): number | undefined => {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6
  } catch {
    return undefined
  }
}
