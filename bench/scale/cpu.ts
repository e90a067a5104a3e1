import { readdirSync, readFileSync } from "node:fs"

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const ticksPerSecond = 100

/** CPU seconds (user + system, every thread) a process has used, from /proc/<pid>/stat; 0 once it is gone. */
export const processCpuSeconds = (pid: number): number => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    // The command name is in parentheses and may hold spaces: the fields after it start at utime (14th) - 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
  } catch {
    return 0
  }
}

/** The command line of every process, by pid, as `ps` shows it (PostgreSQL rewrites its processes' titles). */
const commandLines = (): ReadonlyArray<readonly [number, string]> =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        return [[Number(entry), readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ")] as const]
      } catch {
        return []
      }
    })

/** A PostgreSQL backend serving a client: its title names the user, the database and the client's address. */
const clientBackend = /^postgres: .* (\S+) (\d+\.\d+\.\d+\.\d+\(\d+\)|\[local\])/

/**
 * The PostgreSQL processes now: the backends serving clients of `database`, and the server's own processes
 * (checkpointer, WAL writer, background writer, …), which work for every database.
 */
export const postgresPids = (database: string): { backends: Array<number>; auxiliary: Array<number> } => {
  const backends: Array<number> = []
  const auxiliary: Array<number> = []
  for (const [pid, command] of commandLines()) {
    if (!command.startsWith("postgres")) continue
    const client = clientBackend.exec(command)
    if (client === null) auxiliary.push(pid)
    else if (client[1] === database) backends.push(pid)
  }
  return { backends, auxiliary }
}

/** The machine's busy and total CPU seconds over every core, from /proc/stat. */
export const machineCpuSeconds = (): { busy: number; total: number } => {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number)
  const busy = user! + nice! + system! + irq! + softirq! + steal!
  return { busy: busy / ticksPerSecond, total: (busy + idle! + iowait!) / ticksPerSecond }
}

/** CPU seconds of a set of processes between two readings; a process new at the second counts from 0. */
export const cpuSpent = (before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number => {
  let spent = 0
  for (const [pid, seconds] of after) spent += Math.max(0, seconds - (before.get(pid) ?? 0))
  return spent
}

/** Reads the CPU seconds of each pid. */
export const readCpu = (pids: Iterable<number>): Map<number, number> =>
  new Map([...pids].map((pid) => [pid, processCpuSeconds(pid)]))
