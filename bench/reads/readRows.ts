import type { Playbook } from "./dataset.js"
import type { Answer, ReadsRuntime } from "./readsRuntime.js"

/** One read the benchmark times: one request on a playbook, its milliseconds. */
export interface ReadRow {
  readonly name: string
  /** What the figure is, for the table's last column. */
  readonly what: string
  readonly measure: (runtime: ReadsRuntime, playbook: Playbook, index: number) => Promise<number>
}

/** The answer's milliseconds, or an error naming the read when it did not answer 200. */
const okMillis = (answer: Answer, what: string): number => {
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`)
  return answer.millis
}

/** A read of one page: a GET under the playbook, or under the org for the activity. */
const pageRow = (name: string, path: (playbook: Playbook) => string): ReadRow => ({
  name,
  what: "first page",
  measure: async (runtime, playbook) =>
    okMillis(await runtime.send(playbook.org, "GET", path(playbook)), `${name} ${playbook.org}`)
})

/**
 * The changes release: a client holds list_playbook_changes from the cursor of now; another request starts a run;
 * the figure is the time from sending run_definition to the held request's answer, which must name a change.
 */
const changesRelease: ReadRow = {
  name: "list_playbook_changes",
  what: "held → released by a run",
  measure: async (runtime, playbook, index) => {
    const base = `/playbooks/${playbook.id}`
    const now = await runtime.send(playbook.org, "GET", `${base}/changes`)
    okMillis(now, "list_playbook_changes (cursor of now)")
    const held = runtime
      .send(playbook.org, "GET", `${base}/changes?since=${encodeURIComponent(now.body.cursor)}&wait=25`)
      .then((answer) => ({ answer, at: performance.now() }))
    await new Promise((resolve) => setTimeout(resolve, 20))
    const sent = performance.now()
    const run = runtime.send(playbook.org, "POST", `${base}/definitions/computation/twice/run`, { input: { n: index } })
    const { answer, at } = await held
    okMillis(await run, "run_definition")
    okMillis(answer, "list_playbook_changes (held)")
    if (answer.body.changes.length === 0) throw new Error("list_playbook_changes: released without the run")
    return at - sent
  }
}

/**
 * The reads of issue 7's benchmark: a page of each, 50 rows (list_runs also filtered by a status nine runs in ten
 * have, ADR 0014), and the analytics of 30 days.
 */
export const readRows: ReadonlyArray<ReadRow> = [
  pageRow("list_runs", (playbook) => `/playbooks/${playbook.id}/runs?limit=50`),
  {
    ...pageRow("list_runs status", (playbook) => `/playbooks/${playbook.id}/runs?status=succeeded&limit=50`),
    what: "first page, succeeded"
  },
  pageRow("list_playbook_events", (playbook) => `/playbooks/${playbook.id}/events?limit=50`),
  pageRow("list_activity", (playbook) => `/activity?playbook=${playbook.id}&limit=50`),
  {
    ...pageRow("get_playbook_analytics", (playbook) => `/playbooks/${playbook.id}/analytics?days=30`),
    what: "30 days"
  },
  changesRelease
]
