import { readFileSync } from "node:fs"

/** Clock ticks per second of `/proc/<pid>/task/<tid>/stat` (Linux's USER_HZ, 100 on every common build). */
const ticksPerSecond = 100

/**
 * The CPU time the main thread has used so far (user + system), in milliseconds, at 10 ms resolution, read from
 * `/proc/self/task/<pid>/stat` (the main thread's id is the process id); `undefined` where there is no such file.
 * Unlike the event loop's busy time, it does not count the time the thread waited for a core on a loaded machine.
 */
export const mainThreadCpuMillis = (): number | undefined => {
  const stat = (() => {
    try {
      return readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8")
    } catch {
      return undefined
    }
  })()
  if (stat === undefined) return undefined
  // After the command name in parentheses: state is field 3, utime field 14, stime field 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return ((Number(fields[11]) + Number(fields[12])) * 1_000) / ticksPerSecond
}
