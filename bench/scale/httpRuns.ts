import { callChain, incrementSource } from "../workflows/documents.js"

/** The playbook the benchmark saves its definitions in (local mode: org `local`). */
const playbook = "scale"

/** The workflow of call steps the benchmark runs. */
const workflow = "calls"

/** How often a run that answered `started` is read until it ended; its end time comes from `ended_at`. */
const pollMillis = 100

const wait = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

/** A request to an instance's API that must answer below 300; its answer's JSON body. */
const request = async (base: string, method: string, path: string, body?: unknown): Promise<any> => {
  const response = await fetch(`${base}/v1/orgs/local${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`)
  return text === "" ? undefined : JSON.parse(text)
}

/** Saves again while the instance answers that no checker or worker is ready yet (a loaded machine). */
const whileStarting = async <A>(save: () => Promise<A>): Promise<A> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await save()
    } catch (error) {
      if (!String(error).includes("503") || attempt === 10) throw error
      await wait(2_000)
    }
  }
}

/** Creates the playbook, the function `increment` and the workflow of `steps` call steps, through one instance. */
export const saveDefinitions = async (base: string, steps: number): Promise<void> => {
  await request(base, "POST", "/playbooks", { playbook, name: "scale" })
  await whileStarting(() =>
    request(base, "POST", `/playbooks/${playbook}/definitions/computation`, {
      name: "increment",
      source: incrementSource,
      diagram: "none"
    })
  )
  await request(base, "POST", `/playbooks/${playbook}/definitions/workflow`, {
    name: workflow,
    source: callChain(steps)
  })
}

/** How one workflow run ended: its status, output and `ended_at` (milliseconds since the epoch). */
export interface EndedRun {
  readonly status: string
  readonly output: unknown
  readonly endedAt: number
}

/** Runs the workflow through an instance from n = 0 and reads it until it ended. */
export const runWorkflow = async (base: string): Promise<EndedRun> => {
  let run = await whileStarting(() =>
    request(base, "POST", `/playbooks/${playbook}/definitions/workflow/${workflow}/run`, { input: { n: 0 } })
  )
  while (run.status === "started") {
    await wait(pollMillis)
    run = await request(base, "GET", `/playbooks/${playbook}/runs/${run.run_id}`)
  }
  return { status: run.status, output: run.output, endedAt: Date.parse(run.ended_at) }
}
