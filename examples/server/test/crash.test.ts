import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { postgresSuite } from "@runledger/store-postgres/testing"
import { expect, it } from "vitest"
import { addOne, freePort, workflowHeader, x } from "./serverDocuments.js"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/**
 * How many times the test kills the server: CRASH_KILLS (50 is what the issue asks of CI). Unset, the test is
 * skipped with a line saying so: it restarts the server that many times and is run on purpose (ADR 0277).
 */
const kills = Number(process.env.CRASH_KILLS ?? 0)

const header = workflowHeader("crash")

/** Four calls with a wait after each: the output is n + 4. */
const chain = `${header}do:
  - loop:
      for:
        each: i
        in: '${x} [1, 2, 3, 4] }'
      do:
        - bump:
            call: run_definition
            with:
              type: computation
              name: add-one
              input: '${x} $data }'
        - rest:
            wait: { milliseconds: 250 }
`

/** Waits for an event and hands on its data. */
const listener = `${header}do:
  - hear:
      listen:
        to:
          one:
            with: { type: com.example.go }
      output:
        as: '${x} $data[0] }'
`

/** Raises a 503 three times, retrying after a delay, then recovers. */
const retrier = `${header}do:
  - again:
      try:
        - fail:
            raise:
              error: { type: https://example.com/errors/busy, status: 503 }
      catch:
        retry:
          delay: { milliseconds: 200 }
          limit:
            attempt: { count: 3 }
        do:
          - recover:
              set:
                retried: true
                n: '${x} $input.n }'
`

/** Calls the chain workflow and takes its output. */
const nested = `${header}do:
  - inner:
      call: run_definition
      with:
        type: workflow
        name: chain
        input: '${x} $data }'
`

/** The workflows and what an uninterrupted run of each gives for input `{ n }`. */
const shapes: ReadonlyArray<{ name: string; source: string; expected: (n: number) => unknown }> = [
  { name: "chain", source: chain, expected: (n) => ({ n: n + 4 }) },
  { name: "listener", source: listener, expected: (n) => ({ go: n }) },
  { name: "retrier", source: retrier, expected: (n) => ({ retried: true, n }) },
  { name: "nested", source: nested, expected: (n) => ({ n: n + 4 }) }
]

if (kills === 0) console.log("skipped the crash test: set CRASH_KILLS (e.g. 50) to run it")

postgresSuite("a server killed at random moments resumes every workflow", "alongside", (database) => {
  it.skipIf(kills === 0)(
    `${kills} kills: every run ends as an uninterrupted run would, no input applied twice`,
    async () => {
      const port = await freePort()
      const url = `http://127.0.0.1:${port}`
      let server: ChildProcess | undefined
      const start = async () => {
        server = spawn(process.execPath, ["examples/server/dist/main.js"], {
          cwd: root,
          env: { ...process.env, PORT: String(port), DATABASE_URL: database.url, DATABASE_SCHEMA: database.schema },
          stdio: "ignore"
        })
        for (;;) {
          try {
            if ((await fetch(`${url}/health`)).ok) return
          } catch {}
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }
      /** Sends a request, waiting for the server to come back when it is down or stopping. */
      const send = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
        for (;;) {
          try {
            const response = await fetch(`${url}/v1/orgs/local/playbooks/crash${path}`, {
              method,
              headers: body === undefined ? {} : { "content-type": "application/json" },
              ...(body === undefined ? {} : { body: JSON.stringify(body) })
            })
            const text = await response.text()
            if (response.status >= 500) throw new Error(text)
            return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 100))
          }
        }
      }
      /** The id of the playbook's newest event: it changes whenever the server records something. */
      const newestEvent = async () => (await send("GET", "/events?limit=1")).body?.events?.[0]?.id as string | undefined
      await start()
      try {
        const created = await fetch(`${url}/v1/orgs/local/playbooks`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ playbook: "crash", name: "Crash" })
        })
        expect(created.status).toBe(201)
        expect(
          (await send("POST", "/definitions/computation", { name: "add-one", source: addOne, diagram: "none" })).status
        ).toBe(201)
        for (const shape of shapes)
          expect((await send("POST", "/definitions/workflow", { name: shape.name, source: shape.source })).status).toBe(
            201
          )
        let killed = 0
        let round = 0
        const runs: Array<{ id: string; shape: (typeof shapes)[number]; n: number }> = []
        while (killed < kills) {
          round++
          const wave = Array.from({ length: 20 }, (_, index) => ({
            id: crypto.randomUUID(),
            shape: shapes[index % shapes.length]!,
            n: round * 100 + index
          }))
          runs.push(...wave)
          const driving = (async () => {
            for (const run of wave)
              await send("POST", `/definitions/workflow/${run.shape.name}/run`, { run_id: run.id, input: { n: run.n } })
            for (const run of wave.filter((candidate) => candidate.shape.name === "listener"))
              await send("POST", `/runs/${run.id}/events`, {
                event: { type: "com.example.go", id: `go-${run.id}`, data: { go: run.n } }
              })
          })()
          let ended = false
          void driving.then(async () => {
            for (;;) {
              const standing = await Promise.all(wave.map((run) => send("GET", `/runs/${run.id}`)))
              if (standing.every((read) => read.status === 200 && read.body.status !== "started")) break
              await new Promise((resolve) => setTimeout(resolve, 100))
            }
            ended = true
          })
          while (!ended) {
            // A kill at a random moment once the restarted server has recorded something, so every life makes progress.
            const before = await newestEvent()
            while (!ended && (await newestEvent()) === before) await new Promise((resolve) => setTimeout(resolve, 50))
            await new Promise((resolve) => setTimeout(resolve, Math.random() * 1500))
            if (ended) break
            server?.kill("SIGKILL")
            killed++
            await start()
          }
          await driving
        }
        for (const run of runs) {
          const read = await send("GET", `/runs/${run.id}`)
          expect(read.body, `${run.shape.name} ${run.id}`).toMatchObject({
            status: "succeeded",
            output: run.shape.expected(run.n)
          })
          const history = await send("GET", `/runs/${run.id}/history?limit=100`)
          const inputs = history.body.events
            .filter((event: any) => event.type === "workflow_input_applied")
            .map((event: any) => `${event.data.input.kind} ${event.data.input.key}`)
          expect(new Set(inputs).size, `${run.id} applied an input twice: ${inputs.join(", ")}`).toBe(inputs.length)
          expect(history.body.events.filter((event: any) => event.type === "run_succeeded")).toHaveLength(1)
        }
        const callees = await send("GET", "/runs?type=computation&limit=100")
        const perStep = new Map<string, number>()
        let page = callees.body
        for (;;) {
          for (const callee of page.runs) {
            const key = `${callee.within?.run_id} ${callee.within?.step} ${callee.run_id}`
            perStep.set(key, (perStep.get(key) ?? 0) + 1)
          }
          if (page.next_cursor === null) break
          page = (await send("GET", `/runs?type=computation&limit=100&cursor=${page.next_cursor}`)).body
        }
        expect([...perStep.values()].every((count) => count === 1)).toBe(true)
        const chains = runs.filter((run) => run.shape.name === "chain").length
        const nestedRuns = runs.filter((run) => run.shape.name === "nested").length
        expect(perStep.size).toBe((chains + nestedRuns) * 4)
        console.log(`crash test: ${killed} kills over ${round} rounds of 20 workflows; every run ended as expected`)
      } finally {
        server?.kill("SIGKILL")
      }
    },
    900_000
  )
})
