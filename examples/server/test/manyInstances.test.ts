import { postgresSuite } from "@runledger/store-postgres/testing"
import { expect, it } from "vitest"
import { addOne, askToGoOn as ask, workflowHeader, x } from "./serverDocuments.js"
import { holdsLease, type ServerProcess, startServer, untilHealthy } from "./serverProcess.js"

/** How many workflows the test runs across the instances: 200, as issue 8 asks, unless MANY_INSTANCES_RUNS says. */
const workflows = Number(process.env.MANY_INSTANCES_RUNS ?? 200)

/** The bound the takeover of the killed instance's runs is held to: the 30 s backstop with room for a loaded machine. */
const takeoverBoundMillis = 120_000

/**
 * The bound the takeover of the sweeps lease is held to: a survivor tries every second and the dead holder's
 * session ends with its process (ADR 0402); the rest is room for a loaded machine.
 */
const leaseBoundMillis = 15_000

/** How many playbook events the test publishes for the event trigger: under its 60 starts a minute. */
const published = 40

const header = workflowHeader("many")

/** Two calls of a computation, each followed by a timer: the output is n + 2. */
const chain = `${header}do:
  - first:
      call: run_definition
      with: { type: computation, name: add-one, input: '${x} $data }' }
  - rest:
      wait: { milliseconds: 300 }
  - second:
      call: run_definition
      with: { type: computation, name: add-one, input: '${x} $data }' }
  - again:
      wait: { milliseconds: 300 }
`

/** A workflow calling the chain workflow. */
const nested = `${header}do:
  - inner:
      call: run_definition
      with: { type: workflow, name: chain, input: '${x} $data }' }
`

/** A timer, then waits for an event and hands on its data. */
const listener = `${header}do:
  - pause:
      wait: { milliseconds: 300 }
  - hear:
      listen:
        to:
          one:
            with: { type: com.example.go }
      output:
        as: '${x} $data[0] }'
`

/** Asks a person through an interaction, then waits on a timer and hands on the answer. */
const asker = `${header}do:
  - question:
      call: run_definition
      with: { type: interaction, name: ask, input: '${x} $data }' }
  - pause:
      wait: { milliseconds: 300 }
`

/** The workflows, what an uninterrupted run gives for input `{ n }`, and how many timers it fires itself. */
const shapes = [
  { name: "chain", source: chain, expected: (n: number) => ({ n: n + 2 }), timers: 2 },
  { name: "nested", source: nested, expected: (n: number) => ({ n: n + 2 }), timers: 0 },
  { name: "listener", source: listener, expected: (n: number) => ({ go: n }), timers: 1 },
  { name: "asker", source: asker, expected: (_: number) => ({ decision: "grant" }), timers: 1 }
] as const

/** A workflow started by a trigger (`schedule` lines) that hands on its input. */
const triggered = (schedule: string) =>
  `${header}schedule:\n${schedule}do:\n  - done:\n      set:\n        got: '${x} $input }'\n`

/** The triggered workflows: each minute after its save, each whole minute, and each `com.example.ping` published. */
const ticker = triggered("  every: PT1M\n")
const clock = triggered("  cron: '* * * * *'\n")
const reactor = triggered("  on:\n    one:\n      with: { type: com.example.ping }\n")

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

/** The due times a schedule trigger's runs were started for, oldest first. */
const dueTimes = (runs: ReadonlyArray<any>): ReadonlyArray<number> =>
  runs.map((run) => Date.parse(run.output.got.schedule.due)).toSorted((a, b) => a - b)

postgresSuite("three instances on one database, the lease holder killed mid-way", "alongside", (database) => {
  it(`${workflows} workflows with timers, calls, listens and answers, and triggers, spread across instances`, async () => {
    const instances: Array<ServerProcess> = []
    // The three start at once: their migrations queue on the migrator's lock.
    instances.push(...(await Promise.all([startServer(database), startServer(database), startServer(database)])))
    await Promise.all(instances.map(untilHealthy))
    /** The requests sent again, and why: an instance was down or answered 5xx. */
    const resent: Array<string> = []
    /** Sends a request through instance `at`, or the next live one when it is down or answers 5xx. */
    const send = async (at: number, method: string, path: string, body?: unknown) => {
      for (let attempt = 0; ; attempt++) {
        const instance = instances[(at + attempt) % instances.length]!
        if (!instance.alive) continue
        try {
          const response = await fetch(`${instance.url}/v1/orgs/local/playbooks/many${path}`, {
            method,
            headers: body === undefined ? {} : { "content-type": "application/json" },
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
          const text = await response.text()
          if (response.status < 500)
            return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
          resent.push(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`)
        } catch (error) {
          resent.push(`${method} ${path}: ${String(error)}`)
        }
        await sleep(100)
      }
    }
    /** Every run listed under a query (`type=…`, `name=…`), page by page. */
    const allRuns = async (query: string) => {
      const runs: Array<any> = []
      let cursor: string | null = null
      do {
        const page: any = (
          await send(0, "GET", `/runs?${query}&limit=100${cursor === null ? "" : `&cursor=${cursor}`}`)
        ).body
        runs.push(...page.runs)
        cursor = page.next_cursor
      } while (cursor !== null)
      return runs
    }
    try {
      while (instances.filter(holdsLease).length !== 1) {
        const stopped = instances.find((instance) => instance.exited !== undefined)
        if (stopped !== undefined) throw new Error(`an instance stopped: ${stopped.output.join("\n")}`)
        await sleep(100)
      }
      const created = await fetch(`${instances[0]!.url}/v1/orgs/local/playbooks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ playbook: "many", name: "Many" })
      })
      expect(created.status).toBe(201)
      expect(
        (await send(1, "POST", "/definitions/computation", { name: "add-one", source: addOne, diagram: "none" })).status
      ).toBe(201)
      expect(
        (
          await send(2, "POST", "/definitions/interaction", {
            name: "ask",
            source: ask,
            diagram: "none",
            overview: "Asks."
          })
        ).status
      ).toBe(201)
      for (const [index, shape] of shapes.entries())
        expect(
          (await send(index, "POST", "/definitions/workflow", { name: shape.name, source: shape.source })).status
        ).toBe(201)
      const triggersSaved = { from: Date.now(), to: Number.NaN }
      for (const [index, [name, source]] of Object.entries({ ticker, clock, reactor }).entries())
        expect((await send(index, "POST", "/definitions/workflow", { name, source })).status).toBe(201)
      triggersSaved.to = Date.now()
      const runs = Array.from({ length: workflows }, (_, index) => ({
        id: crypto.randomUUID(),
        shape: shapes[index % shapes.length]!,
        n: index,
        at: index % 3
      }))
      /** Starts a run: the request answers it, started or ended, whichever instance's host drives it too. */
      const startRun = (run: (typeof runs)[number]) =>
        send(run.at, "POST", `/definitions/workflow/${run.shape.name}/run`, { run_id: run.id, input: { n: run.n } })
      /** Publishes the playbook events `from` to `to` (exclusive), each through the next instance. */
      const publish = async (from: number, to: number) => {
        for (let index = from; index < to; index++)
          expect(
            (
              await send(index, "POST", "/events", {
                event: { source: "/many", type: "com.example.ping", id: `ping-${index}`, data: { ping: index } }
              })
            ).status
          ).toBeLessThan(300)
      }
      const half = Math.floor(workflows / 2)
      for (const run of runs.slice(0, half)) {
        const answer = await startRun(run)
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      }
      await publish(0, published / 2)
      // The instance holding the sweeps lease dies holding whatever it was driving; its runs, its timers and the
      // trigger schedules are left to the other two, one of which takes the lease.
      const killedIndex = instances.findIndex(holdsLease)
      const killed = instances[killedIndex]!
      killed.alive = false
      killed.child.kill("SIGKILL")
      const killedAt = performance.now()
      const killedAtWall = Date.now()
      // Runs driven only by timers and calls, so their ending measures the takeover, not the events the test sends.
      const orphans = runs
        .slice(0, half)
        .filter((run) => run.at === killedIndex && (run.shape.name === "chain" || run.shape.name === "nested"))
      for (const run of runs.slice(half)) {
        const answer = await startRun(run)
        expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      }
      await publish(published / 2, published)
      // Events and answers go through an instance other than the one that started the run.
      for (const run of runs.filter((candidate) => candidate.shape.name === "listener"))
        expect(
          (
            await send(run.at + 1, "POST", `/runs/${run.id}/events`, {
              event: { type: "com.example.go", id: `go-${run.id}`, data: { go: run.n } }
            })
          ).status
        ).toBe(200)
      const askers = new Map(runs.filter((run) => run.shape.name === "asker").map((run) => [run.id, run]))
      const answered = new Set<string>()
      while (answered.size < askers.size) {
        for (const interaction of await allRuns("type=interaction")) {
          const caller = askers.get(interaction.within?.run_id)
          if (caller === undefined || answered.has(interaction.run_id)) continue
          const answer = await send(caller.at + 1, "POST", `/runs/${interaction.run_id}/answer`, {
            answer: { decision: "grant" }
          })
          expect(answer.status, JSON.stringify(answer.body)).toBe(200)
          answered.add(interaction.run_id)
        }
        await sleep(200)
      }
      let takeoverMillis: number | undefined
      for (;;) {
        const standing = await Promise.all(runs.map((run) => send(run.at, "GET", `/runs/${run.id}`)))
        const orphansEnded = orphans.every((run) => standing[runs.indexOf(run)]!.body?.status !== "started")
        if (orphansEnded && takeoverMillis === undefined) takeoverMillis = performance.now() - killedAt
        if (standing.every((read) => read.status === 200 && read.body.status !== "started")) break
        await sleep(250)
      }
      const ended = await Promise.all(runs.map(async (run) => (await send(run.at, "GET", `/runs/${run.id}`)).body))
      const unlike = runs.flatMap((run, index) =>
        ended[index]?.status === "succeeded" &&
        JSON.stringify(ended[index].output) === JSON.stringify(run.shape.expected(run.n))
          ? []
          : [`${run.shape.name} (at instance ${run.at}): ${JSON.stringify(ended[index])}`]
      )
      expect(
        unlike,
        `instance ${killedIndex} was killed at ${new Date(killedAtWall).toISOString()}; sent again: ${resent.join("; ")}; the instances said:\n${instances.map((instance, index) => `${index}: ${instance.output.slice(-20).join("\n")}`).join("\n")}`
      ).toEqual([])
      for (const run of runs) {
        const history = await send(run.at, "GET", `/runs/${run.id}/history?limit=100`)
        const inputs = history.body.events
          .filter((event: any) => event.type === "workflow_input_applied")
          .map((event: any) => event.data.input)
        const keys = inputs.map((input: any) => `${input.kind} ${input.key}`)
        expect(new Set(keys).size, `${run.id} applied an input twice: ${keys.join(", ")}`).toBe(keys.length)
        expect(
          inputs.filter((input: any) => input.kind === "timer_fired"),
          `${run.id} timers`
        ).toHaveLength(run.shape.timers)
        expect(history.body.events.filter((event: any) => event.type === "run_succeeded")).toHaveLength(1)
      }
      /** One callee run per call: the calling run and step name each callee once. */
      const calleesPerCall = (callees: ReadonlyArray<any>) => {
        const perCall = new Map<string, number>()
        for (const callee of callees.filter((candidate) => candidate.within !== undefined)) {
          const key = `${callee.within.run_id} ${callee.within.step}`
          perCall.set(key, (perCall.get(key) ?? 0) + 1)
        }
        expect([...perCall.values()].every((count) => count === 1)).toBe(true)
        return perCall.size
      }
      const count = (name: string) => runs.filter((run) => run.shape.name === name).length
      expect(calleesPerCall(await allRuns("type=computation"))).toBe((count("chain") + count("nested")) * 2)
      expect(calleesPerCall(await allRuns("type=workflow"))).toBe(count("nested"))
      expect(calleesPerCall(await allRuns("type=interaction"))).toBe(count("asker"))

      /** The runs of a triggered workflow as get_run shows them, with their outputs (the list leaves them out). */
      const triggeredRuns = async (name: string) =>
        Promise.all(
          (await allRuns(`type=workflow&name=${name}`)).map(
            async (listed) => (await send(0, "GET", `/runs/${listed.run_id}`)).body
          )
        )
      // Each ping started one run, whichever instances matched it.
      const reactions = await triggeredRuns("reactor")
      expect(reactions.every((run) => run.status === "succeeded")).toBe(true)
      expect(reactions.map((run) => run.output.got[0].id).toSorted()).toEqual(
        Array.from({ length: published }, (_, index) => `ping-${index}`).toSorted()
      )
      // The schedules fired once at every minute from their save until now, across the kill: wait for a due time
      // after it, which only a survivor can have fired.
      const schedules = async () => {
        const [tickerRuns, clockRuns] = await Promise.all([triggeredRuns("ticker"), triggeredRuns("clock")])
        return { ticker: tickerRuns, clock: clockRuns, readAt: Date.now() }
      }
      let fired = await schedules()
      // A run a schedule has just started may still be going: its due time is read once it ended.
      const firedSinceKill = (found: ReadonlyArray<any>) =>
        found.every((run) => run.status !== "started") && (dueTimes(found).at(-1) ?? 0) > killedAtWall
      while (![fired.ticker, fired.clock].every(firedSinceKill)) {
        await sleep(1_000)
        fired = await schedules()
      }
      for (const found of [fired.ticker, fired.clock]) {
        expect(found.every((run) => run.status === "succeeded")).toBe(true)
        const dues = dueTimes(found)
        // The first due time is the first minute after the save (`every`: its save plus a minute).
        expect(dues[0]).toBeGreaterThan(triggersSaved.from)
        expect(dues[0]).toBeLessThanOrEqual(triggersSaved.to + 60_000)
        expect(dues.slice(1).map((due, index) => due - dues[index]!)).toEqual(dues.slice(1).map(() => 60_000))
        // A due time up to 10 s old may not be fired yet by a loaded holder; one older than that was missed.
        expect(fired.readAt - dues.at(-1)!).toBeLessThan(70_000)
      }
      expect(fired.clock.every((run) => run.output.got.schedule.due.endsWith(":00.000Z"))).toBe(true)
      expect((await send(0, "GET", "/events?type=reaction_refused")).body.events).toEqual([])

      // The lease: one survivor took it after the kill, and one instance holds it now.
      const taken = instances
        .filter((instance) => instance !== killed)
        .flatMap((instance) => instance.leaseTaken.filter((at) => at > killedAt))
      expect(taken.length).toBeGreaterThan(0)
      const leaseTakeoverMillis = Math.min(...taken) - killedAt
      expect(instances.filter(holdsLease)).toHaveLength(1)
      console.log(
        `many instances: ${workflows} workflows on 3 instances, the lease holder killed after ${half}; the lease was taken over ${(leaseTakeoverMillis / 1000).toFixed(2)} s after the kill; its ${orphans.length} runs ended ${(takeoverMillis! / 1000).toFixed(1)} s after it; ${published} pings started ${reactions.length} runs; the schedules fired at ${dueTimes(fired.ticker).length} and ${dueTimes(fired.clock).length} minutes; requests sent again:\n${resent.join("\n")}`
      )
      expect(leaseTakeoverMillis).toBeLessThan(leaseBoundMillis)
      expect(takeoverMillis).toBeLessThan(takeoverBoundMillis)
    } finally {
      for (const instance of instances) instance.child.kill("SIGKILL")
    }
  }, 1_200_000)
})
