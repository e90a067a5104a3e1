/**
 * The scale benchmark (issue 8): the workflows benchmark's call-heavy shape (`callChain`) on one, two and three
 * instances of the example server — child processes on one PostgreSQL database, driven over HTTP — with the CPU
 * the servers, PostgreSQL and this driver used, read from /proc. Medians of interleaved repetitions; the scaling
 * ratio of the most instances to one; and what bounds it. See bench/README.md (ADR 0403).
 */
import { cpus, loadavg } from "node:os"
import { median } from "../ledger/measure.js"
import { createBenchDatabase } from "../workflows/benchDatabase.js"
import { readScaleConfig } from "./config.js"
import { cpuSpent, machineCpuSeconds, postgresPids, readCpu } from "./cpu.js"
import { runWorkflow, saveDefinitions } from "./httpRuns.js"
import { startInstances, stopInstances } from "./servers.js"

const config = readScaleConfig()
const log = (line: string) => process.stdout.write(`${line}\n`)
const { steps, concurrent } = config

/** One trial's figures: throughput, and the cores each group of processes kept busy over the timed window. */
interface Sample {
  readonly stepsPerSecond: number
  /** Server CPU milliseconds per step: the lease holder's, and the mean of the other instances'. */
  readonly holderMsPerStep: number
  readonly othersMsPerStep: number
  readonly servers: number
  readonly postgres: number
  readonly postgresOwn: number
  readonly driver: number
  readonly machine: number
  readonly wrong?: string
}

/** `concurrent` workflows at once, spread over the instances in turn. */
const round = (instances: ReadonlyArray<{ readonly url: string }>) =>
  Promise.all(Array.from({ length: concurrent }, (_, index) => runWorkflow(instances[index % instances.length]!.url)))

/**
 * Starts `count` instances on a fresh schema and runs one untimed round (sandbox workers, pools and caches warm
 * up), then times a second round.
 */
const trial = async (databaseUrl: string, databaseName: string, count: number, schema: string): Promise<Sample> => {
  const instances = await startInstances(count, databaseUrl, schema)
  try {
    await saveDefinitions(instances[0]!.url, steps)
    await round(instances)
    const servers = instances.map((instance) => instance.pid)
    const postgresBefore = postgresPids(databaseName)
    const before = {
      servers: readCpu(servers),
      backends: readCpu(postgresBefore.backends),
      own: readCpu(postgresBefore.auxiliary),
      driver: process.cpuUsage(),
      machine: machineCpuSeconds(),
      at: performance.now()
    }
    const begin = Date.now()
    const runs = await round(instances)
    const seconds = (performance.now() - before.at) / 1_000
    const serversAfter = readCpu(servers)
    const msPerStep = (instance: (typeof instances)[number]) =>
      (1_000 * ((serversAfter.get(instance.pid) ?? 0) - (before.servers.get(instance.pid) ?? 0))) / (steps * concurrent)
    const holder = instances.find((instance) => instance.holdsLease())
    const others = instances.filter((instance) => instance !== holder)
    const postgresAfter = postgresPids(databaseName)
    const driver = process.cpuUsage(before.driver)
    const machine = machineCpuSeconds()
    const wrong = runs.find(
      (run) => run.status !== "succeeded" || (run.output as { n?: unknown } | undefined)?.n !== steps
    )
    return {
      stepsPerSecond: (steps * concurrent) / ((Math.max(...runs.map((run) => run.endedAt)) - begin) / 1_000),
      holderMsPerStep: holder === undefined ? Number.NaN : msPerStep(holder),
      othersMsPerStep:
        others.length === 0
          ? Number.NaN
          : others.reduce((sum, instance) => sum + msPerStep(instance), 0) / others.length,
      servers: cpuSpent(before.servers, serversAfter) / seconds,
      postgres: cpuSpent(before.backends, readCpu(postgresAfter.backends)) / seconds,
      postgresOwn: cpuSpent(before.own, readCpu(postgresAfter.auxiliary)) / seconds,
      driver: (driver.user + driver.system) / 1e6 / seconds,
      machine: (machine.busy - before.machine.busy) / seconds,
      ...(wrong === undefined ? {} : { wrong: `a run ended ${wrong.status} with ${JSON.stringify(wrong.output)}` })
    }
  } finally {
    await stopInstances(instances)
  }
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(", ")
const fixed = (value: number, digits = 2) => value.toFixed(digits)

log(
  `scale bench: ${steps} call steps per workflow, ${concurrent} workflows at once spread over the instances, ` +
    `instances ${config.instances.join("/")}, ${config.reps} interleaved reps (BENCH_SCALE=${config.scale}), ` +
    `node ${process.version}, ${cpus().length} cpus, load average ${load()}`
)

const database = await createBenchDatabase(config.databaseUrl)
log(`database ${database.name} created`)
const samples = new Map<number, Array<Sample>>(config.instances.map((count) => [count, []]))
try {
  for (let rep = 0; rep < config.reps; rep++) {
    const order = config.instances.map((_, index) => config.instances[(index + rep) % config.instances.length]!)
    for (const count of order) {
      const sample = await trial(database.url, database.name, count, `scale_${rep}_${count}`)
      samples.get(count)!.push(sample)
      log(
        `rep ${rep + 1} · ${count} instance${count === 1 ? "" : "s"}: ${fixed(sample.stepsPerSecond, 1)} steps/s; ` +
          `server CPU ms/step: lease holder ${fixed(sample.holderMsPerStep, 1)}, others ${fixed(sample.othersMsPerStep, 1)}; cores ` +
          `busy: servers ${fixed(sample.servers)}, PostgreSQL ${fixed(sample.postgres)} + ${fixed(sample.postgresOwn)} ` +
          `own, driver ${fixed(sample.driver)}, machine ${fixed(sample.machine)}; load average ${load()}` +
          (sample.wrong === undefined ? "" : `; WRONG: ${sample.wrong}`)
      )
    }
  }
} finally {
  await database.drop()
}

const medianOf = (count: number, figure: (sample: Sample) => number) => median(samples.get(count)!.map(figure))
log("")
log(
  "instances | steps/s (median) | steps/s per rep      | servers cores | PostgreSQL cores | driver cores | machine cores | servers CPU ms/step | PostgreSQL CPU ms/step"
)
for (const count of config.instances)
  log(
    `${String(count).padStart(9)} | ${fixed(
      medianOf(count, (sample) => sample.stepsPerSecond),
      1
    ).padStart(16)} | ` +
      `${samples
        .get(count)!
        .map((sample) => fixed(sample.stepsPerSecond, 1))
        .join(", ")
        .padEnd(20)} | ${fixed(medianOf(count, (sample) => sample.servers)).padStart(13)} | ` +
      `${fixed(medianOf(count, (sample) => sample.postgres + sample.postgresOwn)).padStart(16)} | ` +
      `${fixed(medianOf(count, (sample) => sample.driver)).padStart(12)} | ` +
      `${fixed(medianOf(count, (sample) => sample.machine)).padStart(13)} | ` +
      `${fixed(
        medianOf(count, (sample) => (1_000 * sample.servers) / sample.stepsPerSecond),
        1
      ).padStart(18)} | ` +
      `${fixed(
        medianOf(count, (sample) => (1_000 * (sample.postgres + sample.postgresOwn)) / sample.stepsPerSecond),
        1
      ).padStart(22)}`
  )

const fewest = Math.min(...config.instances)
const most = Math.max(...config.instances)
if (most !== fewest) {
  const ratios = samples
    .get(most)!
    .map((sample, rep) => sample.stepsPerSecond / samples.get(fewest)![rep]!.stepsPerSecond)
  log(
    `scaling ${most}/${fewest}: ratio of medians ${fixed(medianOf(most, (s) => s.stepsPerSecond) / medianOf(fewest, (s) => s.stepsPerSecond))}, ` +
      `median of per-rep ratios ${fixed(median(ratios))}`
  )
}

// What bounds the most instances: the machine's cores, if they were nearly all busy, and who kept them busy.
const cores = cpus().length
const busy = medianOf(most, (sample) => sample.machine)
const servers = medianOf(most, (sample) => sample.servers)
const postgres = medianOf(most, (sample) => sample.postgres + sample.postgresOwn)
const driver = medianOf(most, (sample) => sample.driver)
const others = Math.max(0, busy - servers - postgres - driver)
const shares = `servers ${fixed(servers)}, PostgreSQL ${fixed(postgres)}, this driver ${fixed(driver)}, other processes ${fixed(others)}`
log(
  busy >= 0.9 * cores
    ? `bound at ${most} instances: CPU — the machine's ${cores} cores were ${fixed((100 * busy) / cores, 0)}% busy (${shares}); ` +
        `${servers >= postgres ? "the servers (interpreter, HTTP, sandboxes)" : "PostgreSQL"} used the most`
    : `bound at ${most} instances: not the CPU — the ${cores} cores were ${fixed((100 * busy) / cores, 0)}% busy (${shares}); ` +
        "the runs wait on PostgreSQL (commits and row locks), not on a core"
)
// Whether each step costs more CPU as instances are added: work the instances repeat, which no core count removes.
const perStep = (count: number) =>
  medianOf(count, (sample) => (1_000 * (sample.servers + sample.postgres + sample.postgresOwn)) / sample.stepsPerSecond)
if (most !== fewest)
  log(
    `CPU per step (servers and PostgreSQL): ${fixed(perStep(fewest), 1)} ms at ${fewest}, ${fixed(perStep(most), 1)} ms at ${most}` +
      ` (×${fixed(perStep(most) / perStep(fewest))}); at ${most} the lease holder used ` +
      `${fixed(
        medianOf(most, (sample) => sample.holderMsPerStep),
        1
      )} ms per step, each other instance ` +
      `${fixed(
        medianOf(most, (sample) => sample.othersMsPerStep),
        1
      )} ms`
  )
if ([...samples.values()].flat().some((sample) => sample.wrong !== undefined)) process.exitCode = 1
