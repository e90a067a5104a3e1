import { Views } from "@runledger/core"
import { Effect } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { askTo as ask, double } from "./readSideDocuments.js"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"

onEveryStore("the read side rebuilt from the ledger over HTTP", (store) => {
  let server: AcceptanceServer
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
  }, 60_000)
  afterAll(() => server?.close())

  /** Sends a request and expects it to succeed; its body. */
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await server.send(method, path, body)
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300)
    return answer.body
  }

  it("drops the views, rebuilds them from the ledger, and every read of the read side answers the same", async () => {
    const org = "/v1/orgs/local"
    const id = `rebuilt-${crypto.randomUUID().slice(0, 8)}`
    const base = `${org}/playbooks/${id}`
    const orgSince = (await ok("GET", `${org}/changes`)).cursor
    await ok("POST", `${org}/playbooks`, { playbook: id, name: id })
    const playbookSince = (await ok("GET", `${base}/changes`)).cursor
    await ok("POST", `${base}/definitions/computation`, { name: "double", source: double, diagram: "none" })
    await ok("POST", `${base}/definitions/interaction`, { name: "ask", source: ask, diagram: "none" })
    expect((await ok("POST", `${base}/definitions/computation/double/run`, { input: { n: 2 } })).status).toBe(
      "succeeded"
    )
    expect((await server.send("POST", `${base}/definitions/computation/double/run`, { input: {} })).status).toBe(422)
    const runs: Array<string> = []
    for (const order of [1, 2, 3])
      runs.push((await ok("POST", `${base}/definitions/interaction/ask/run`, { input: { to: "any", order } })).run_id)
    await ok("POST", `${base}/runs/${runs[0]}/answer`, { answer: { decision: "grant" }, claimed_for: "the CFO" })
    await ok("POST", `${base}/runs/${runs[1]}/cancel`, { reason: "Withdrawn" })
    for (const runId of runs.slice(0, 2))
      await waitFor(async () => {
        const run = await ok("GET", `${base}/runs/${runId}`)
        return run.status === "started" ? undefined : run
      })
    const made = await ok("POST", `${base}/comments`, {
      address: `${id}/runs/${runs[0]}/result/1`,
      text: "  Check the total.  ",
      anchor: { x: 0.25, y: 0.5 }
    })
    const resolved = await ok("POST", `${base}/comments`, { address: `playbooks/${id}`, text: "Rename it" })
    await ok("POST", `${base}/comments/${resolved.id}/resolve`, { how: "dismissed" })
    const reopened = await ok("POST", `${base}/comments`, { address: `${id}/definitions/interaction/ask/1`, text: "x" })
    await ok("POST", `${base}/comments/${reopened.id}/resolve`, { how: "acted" })
    await ok("POST", `${base}/comments/${reopened.id}/reopen`)
    const orgComment = await ok("POST", `${org}/comments`, { address: "org/settings/billing", text: "Which plan?" })
    const activity = await ok("GET", `${org}/activity?playbook=${id}`)
    await ok("POST", `${org}/activity/seen`, {
      items: [{ address: activity.rows[0].address, at: activity.rows[0].at }],
      through: activity.rows[3].cursor
    })

    const reads = () =>
      Promise.all(
        [
          `${base}/comments`,
          `${base}/comments?open=false`,
          `${base}/comments?address=${encodeURIComponent(`${id}/runs/${runs[0]}`)}&under=true`,
          `${base}/comments?address=${encodeURIComponent(`${id}/definitions/interaction/ask`)}&under=true&limit=1`,
          `${org}/comments`,
          `${org}/activity?limit=200`,
          `${org}/activity?playbook=${id}&kind=new,comment&limit=3`,
          `${org}/activity?kind=needs_you,broken&mine=true`,
          `${base}/analytics?days=7`,
          `${base}/analytics?days=7&type=interaction&name=ask`,
          `${base}/interactions`,
          `${base}/runs`,
          `${base}/changes?since=${playbookSince}&wait=0`,
          `${org}/changes?since=${orgSince}&wait=0`
        ].map((path) => ok("GET", path))
      )
    const before = await reads()
    expect(before[0].comments.map((comment: { id: string }) => comment.id)).toEqual([reopened.id, made.id])
    expect(before[1].comments.map((comment: { id: string }) => comment.id)).toEqual([resolved.id])
    expect(before[4].comments.map((comment: { id: string }) => comment.id)).toContain(orgComment.id)
    expect(before[5].rows.map((row: { kind: string }) => row.kind)).toEqual(
      expect.arrayContaining(["needs_you", "broken", "new", "comment"])
    )
    expect(before[5].through).not.toBeNull()
    expect(before[8].runs).toMatchObject({ total: 4, succeeded: 2, rejected: 2 })
    expect(before[10].interactions.map((request: { run_id: string }) => request.run_id)).toEqual([runs[2]])
    expect(before[12].changes.length).toBeGreaterThan(3)

    await server.runtime.runPromise(Effect.flatMap(Views, (views) => views.rebuild))
    expect(await reads()).toEqual(before)
  }, 60_000)
})
