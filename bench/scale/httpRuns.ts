import { callChain, incrementSource } from "../workflows/documents.js"

/** The playbook the benchmark saves its definitions in (local mode: org `local`). */
const playbook = "scale"

/** The workflow of call steps the benchmark runs. */
const workflow = "calls"

/**
 * How often an instance's going runs are listed while the benchmark waits for its runs to end; a run's end time
 * comes from its `ended_at`, so this sets only how soon the benchmark learns of it.
 */
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

/**
 * The run ids of an instance's workflow runs still going: one `list_runs` of status `started` (page by page) stands
 * for a read of each run, so what the benchmark spends waiting does not grow with the runs it waits for.
 */
const goingRuns = async (base: string): Promise<ReadonlySet<string>> => {
  const going = new Set<string>()
  let cursor: string | undefined
  do {
    const page = await request(
      base,
      "GET",
      `/playbooks/${playbook}/runs?type=workflow&name=${workflow}&status=started&limit=100${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
    )
    for (const run of page.runs) going.add(run.run_id)
    cursor = page.next_cursor ?? undefined
  } while (cursor !== undefined)
  return going
}

/** Per instance, the runs waited for and the one loop that lists its going runs while any is waited for. */
const waiting = new Map<string, Map<string, (ended: Promise<any>) => void>>()

const watch = async (base: string, waiters: Map<string, (ended: Promise<any>) => void>) => {
  while (waiters.size > 0) {
    await wait(pollMillis)
    const going = await goingRuns(base)
    for (const [runId, settle] of waiters)
      if (!going.has(runId)) {
        waiters.delete(runId)
        settle(request(base, "GET", `/playbooks/${playbook}/runs/${runId}`))
      }
  }
  waiting.delete(base)
}

/** The run `runId` of the instance at `base` once it ended. */
const ended = (base: string, runId: string): Promise<any> =>
  new Promise((resolve, reject) => {
    let waiters = waiting.get(base)
    const start = waiters === undefined
    if (waiters === undefined) {
      waiters = new Map()
      waiting.set(base, waiters)
    }
    waiters.set(runId, (run) => run.then(resolve, reject))
    if (start)
      watch(base, waiters).catch((error) => {
        waiting.delete(base)
        for (const settle of waiters.values()) settle(Promise.reject(error))
      })
  })

/** Runs the workflow through an instance from n = 0 and waits until it ended. */
export const runWorkflow = async (base: string): Promise<EndedRun> => {
  const started = await whileStarting(() =>
    request(base, "POST", `/playbooks/${playbook}/definitions/workflow/${workflow}/run`, { input: { n: 0 } })
  )
  const run = started.status === "started" ? await ended(base, started.run_id) : started
  return { status: run.status, output: run.output, endedAt: Date.parse(run.ended_at) }
}
