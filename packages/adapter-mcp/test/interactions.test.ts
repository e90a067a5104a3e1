import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ClientKind, connectClient, type Harness, harness, problemOf } from "./fixture.js"
import { onEveryStore } from "./stores.js"

/** A request held for an agent. */
const ask = `---
description: Ask which draft to publish
to: '{{ input.editor }}'
expires: PT2H
deliver: agent
output:
  schema:
    type: object
    required: [draft]
    properties:
      draft: { type: integer, minimum: 1, maximum: 3 }
---
Which of the three drafts of {{ input.title }} should go out?
`

onEveryStore("interactions over MCP", (store) => {
  let served: Harness
  beforeAll(async () => {
    served = await harness({}, {}, store())
  }, 60_000)
  afterAll(() => served?.close())

  describe.each<ClientKind>(["v2 at 2026-07-28", "v1"])(
    "list_interactions and answer_interaction as tools, %s",
    (kind) => {
      it("lists the open request, refuses a wrong answer under /answer, takes the right one, and the run succeeds", async () => {
        const client = await connectClient(kind, `${served.url}/mcp`)
        const playbook = `pb-${kind.replaceAll(/[^a-z0-9]/g, "")}`
        await client.callTool("create_playbook", { playbook, name: "Drafts" })
        const tools = (await client.listTools()).map((tool) => tool.name)
        expect(tools).toEqual(expect.arrayContaining(["list_interactions", "answer_interaction"]))
        const created = await client.callTool("create_definition", {
          playbook,
          type: "interaction",
          name: "pick-draft",
          source: ask,
          diagram: "none",
          overview: "Asks the editor."
        })
        expect(created.isError ?? false).toBe(false)
        const run = await client.callTool("run_definition", {
          playbook,
          type: "interaction",
          name: "pick-draft",
          input: { editor: "sam", title: "Q3 letter" }
        })
        expect(run.structuredContent).toMatchObject({ status: "started" })
        const runId = run.structuredContent.run_id

        const listed = await client.callTool("list_interactions", { playbook, to: "sam" })
        expect(listed.structuredContent.interactions).toHaveLength(1)
        expect(listed.structuredContent.interactions[0]).toMatchObject({
          run_id: runId,
          function: "pick-draft",
          message: "Which of the three drafts of Q3 letter should go out?\n",
          standing: "held_for_an_agent",
          delivery: null
        })

        const wrong = await client.callTool("answer_interaction", { playbook, run_id: runId, answer: { draft: 4 } })
        expect(wrong.isError).toBe(true)
        expect(problemOf(wrong)).toMatchObject({ reason: "invalid_input" })
        expect(problemOf(wrong).errors[0].pointer).toBe("/answer/draft")

        const answered = await client.callTool("answer_interaction", { playbook, run_id: runId, answer: { draft: 2 } })
        expect(answered.isError ?? false).toBe(false)
        expect(answered.structuredContent).toMatchObject({ run_id: runId, answer: { draft: 2 } })
        let final: any
        for (let attempt = 0; attempt < 200; attempt++) {
          final = (await client.callTool("get_run", { playbook, run_id: runId })).structuredContent
          if (final.status !== "started") break
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
        expect(final).toMatchObject({ status: "succeeded", output: { draft: 2 } })
        const again = await client.callTool("answer_interaction", { playbook, run_id: runId, answer: { draft: 3 } })
        expect(problemOf(again).reason).toBe("conflict")
        expect((await client.callTool("list_interactions", { playbook })).structuredContent.interactions).toEqual([])
        await client.close()
      })

      it("lists every field of a request, filters by type and function, pages, and refuses at each field", async () => {
        const client = await connectClient(kind, `${served.url}/mcp`)
        const playbook = `pages-${kind.replaceAll(/[^a-z0-9]/g, "")}`
        await client.callTool("create_playbook", { playbook, name: "Pages" })
        await client.callTool("create_definition", {
          playbook,
          type: "interaction",
          name: "pick-draft",
          source: ask,
          diagram: "none"
        })
        const runs: Array<string> = []
        for (const editor of ["ann", "bo"]) {
          const started = await client.callTool("run_definition", {
            playbook,
            type: "interaction",
            name: "pick-draft",
            input: { editor, title: "Q4" }
          })
          runs.push(started.structuredContent.run_id)
          await new Promise((resolve) => setTimeout(resolve, 2))
        }
        const first = await client.callTool("list_interactions", { playbook, limit: 1 })
        expect(first.structuredContent).toMatchObject({ has_more: true, next_cursor: expect.any(String) })
        const [newest] = first.structuredContent.interactions
        expect(newest).toEqual({
          run_id: runs[1],
          type: "interaction",
          function: "pick-draft",
          version: 1,
          to: "bo",
          delivery: null,
          message: "Which of the three drafts of Q4 should go out?\n",
          takes_answer: true,
          answer_schema: {
            type: "object",
            required: ["draft"],
            properties: { draft: { type: "integer", minimum: 1, maximum: 3 } }
          },
          requested_at: expect.stringMatching(/Z$/),
          expires_at: expect.stringMatching(/Z$/),
          attempts: 0,
          conversation: null,
          answerer: null,
          reply_refusals: 0,
          standing: "held_for_an_agent"
        })
        expect(Date.parse(newest.expires_at) - Date.parse(newest.requested_at)).toBe(2 * 3_600_000)
        const next = await client.callTool("list_interactions", {
          playbook,
          limit: 1,
          cursor: first.structuredContent.next_cursor
        })
        expect(next.structuredContent).toMatchObject({ has_more: false, next_cursor: null })
        expect(next.structuredContent.interactions.map((request: any) => request.run_id)).toEqual([runs[0]])
        const named = await client.callTool("list_interactions", {
          playbook,
          type: "interaction",
          function: "pick-draft"
        })
        expect(named.structuredContent.interactions).toHaveLength(2)
        const other = await client.callTool("list_interactions", { playbook, type: "computation" })
        expect(other.structuredContent.interactions).toEqual([])
        expect(
          problemOf(await client.callTool("list_interactions", { playbook, cursor: "bm9wZQ" })).errors[0].pointer
        ).toBe("/cursor")
        expect(problemOf(await client.callTool("list_interactions", { playbook, limit: 101 })).errors[0].pointer).toBe(
          "/limit"
        )
        const unknown = await client.callTool("answer_interaction", {
          playbook,
          run_id: "0199a3c4-7d2e-7c1a-9b3f-000000000000",
          answer: { draft: 1 }
        })
        expect(problemOf(unknown).reason).toBe("not_found")
        const claimed = await client.callTool("answer_interaction", {
          playbook,
          run_id: runs[0],
          answer: { draft: 1 },
          claimed_for: "x".repeat(257)
        })
        expect(problemOf(claimed).errors[0].pointer).toBe("/claimed_for")
        const huge = await client.callTool("answer_interaction", {
          playbook,
          run_id: runs[0],
          answer: { draft: 1, notes: "x".repeat(65_536) }
        })
        expect([problemOf(huge).reason, problemOf(huge).errors[0].pointer]).toEqual(["invalid_input", "/answer"])
        await client.callTool("cancel_run", { playbook, run_id: runs[0] })
        const cancelled = await client.callTool("answer_interaction", {
          playbook,
          run_id: runs[0],
          answer: { draft: 1 }
        })
        expect(problemOf(cancelled).reason).toBe("conflict")
        await client.close()
      })
    }
  )
})
