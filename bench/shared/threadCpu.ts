import { readFileSync } from "node:fs"

/**
 * The time a thread has spent on a core so far, in milliseconds at nanosecond resolution, from
 * `/proc/<task>/schedstat` (its first field); `undefined` where there is no such file (not Linux, or the process
 * ended). A call's share of it does not count the time the thread waited for a core, as wall time on a loaded
 * machine does.
 */
export const onCpuMillis = (task: string): number | undefined => {
  try {
    return Number(readFileSync(`/proc/${task}/schedstat`, "utf8").split(" ")[0]) / 1e6
  } catch {
    return undefined
  }
}

/** The time this process's main thread has spent on a core so far (see `onCpuMillis`). */
export const mainThreadOnCpuMillis = (): number | undefined => onCpuMillis(`self/task/${process.pid}`)

/**
 * The time a set of single-threaded processes (PostgreSQL's backends and its own processes, say) have spent on a
 * core so far, by pid; a process that is gone counts nothing (`cpuSpent` of `scale/cpu.ts` takes the difference).
 */
export const processesOnCpuMillis = (pids: Iterable<number>): ReadonlyMap<number, number> =>
  new Map([...pids].map((pid) => [pid, onCpuMillis(String(pid)) ?? 0]))
