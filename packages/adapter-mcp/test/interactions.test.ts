import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ClientKind, connectClient, type Harness, harness, problemOf } from "./fixture.js"

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

let served: Harness
beforeAll(async () => {
  served = await harness()
})
afterAll(() => served.close())

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
  }
)
