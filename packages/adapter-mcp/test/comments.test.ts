import { Authenticator, dispatch, findOperation } from "@runledger/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ClientKind, connectClient, fullKey, type Harness, harness, problemOf, readOnlyKey } from "./fixture.js"
import { onEveryStore } from "./stores.js"

onEveryStore("comments over MCP", (store) => {
  let served: Harness
  beforeAll(async () => {
    served = await harness(
      { localMode: false, apiKeys: [fullKey, readOnlyKey], studioOrigin: "https://studio.on.auto" },
      {},
      store()
    )
  }, 60_000)
  afterAll(() => served?.close())

  /** Calls an HTTP-only operation in the runtime, as Studio would over HTTP, with the full key. */
  const call = async (name: string, input: Record<string, unknown>, playbook?: string): Promise<any> => {
    const caller = await served.runtime.runPromise(
      Effect.flatMap(Authenticator, (authenticator) =>
        authenticator.authenticate({ bearer: fullKey.key, loopback: true })
      )
    )
    const answer = await served.runtime.runPromise(
      dispatch({
        operation: findOperation(name)!,
        caller,
        input,
        origin: served.url,
        ...(playbook === undefined ? {} : { playbook })
      })
    )
    return answer.output
  }

  describe.each<ClientKind>(["v2 at 2026-07-28", "v2 at 2025-06-18", "v1"])("comments as tools, %s", (kind) => {
    const playbook = `pb-${kind.replaceAll(/[^a-z0-9]/g, "")}`
    let onPlaybook: any
    let onOrg: any
    beforeAll(async () => {
      await call("create_playbook", { playbook, name: "Comments" })
      onPlaybook = await call("make_comment", { address: `playbooks/${playbook}`, text: "Rename it" }, playbook)
      onOrg = await call("make_comment_in_org", { address: `org/settings/${playbook}`, text: "Which plan?" })
    })

    it("lists list_comments and resolve_comment with playbook optional on /mcp and the org endpoint, and neither make nor reopen", async () => {
      for (const path of ["/mcp", "/orgs/acme/mcp"]) {
        const client = await connectClient(kind, `${served.url}${path}`, { key: fullKey.key })
        const tools = new Map((await client.listTools()).map((tool) => [tool.name, tool]))
        for (const name of ["make_comment", "reopen_comment", "make_comment_in_org", "list_comments_in_org"])
          expect(tools.has(name), `${path} ${name}`).toBe(false)
        const list = tools.get("list_comments")
        expect(list.inputSchema.properties.playbook).toMatchObject({ type: "string" })
        expect(list.inputSchema.required ?? []).not.toContain("playbook")
        expect(Object.keys(list.inputSchema.properties)).toEqual([
          "playbook",
          "address",
          "under",
          "open",
          "limit",
          "cursor"
        ])
        const resolve = tools.get("resolve_comment")
        expect(resolve.inputSchema.required).toEqual(["id", "how"])
        expect(resolve.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true })
        expect(list.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true })
        await client.close()
      }
    })

    it("lists them without a playbook argument on a playbook's endpoint, to a key that may only read", async () => {
      const client = await connectClient(kind, `${served.url}/orgs/acme/playbooks/${playbook}/mcp`, {
        key: readOnlyKey.key
      })
      const tools = new Map((await client.listTools()).map((tool) => [tool.name, tool]))
      expect(tools.get("list_comments").inputSchema.properties).not.toHaveProperty("playbook")
      expect(tools.get("resolve_comment").inputSchema.properties).not.toHaveProperty("playbook")
      expect(tools.has("make_comment")).toBe(false)
      const page = await client.callTool("list_comments", {})
      expect(page.structuredContent.comments.map((comment: any) => comment.id)).toEqual([onPlaybook.id])
      await client.close()
    })

    it("read and resolve the organization's own comments without playbook, and a playbook's with it", async () => {
      const client = await connectClient(kind, `${served.url}/mcp`, { key: fullKey.key })
      const own = await client.callTool("list_comments", { address: `org/settings/${playbook}` })
      expect(own.isError).toBeFalsy()
      expect(own.structuredContent.comments).toEqual([onOrg])
      expect(own.content[0].text).toBe("Found 1 open comment on this page.")
      const theirs = await client.callTool("list_comments", { playbook })
      expect(theirs.structuredContent.comments).toEqual([onPlaybook])
      const wrongScope = await client.callTool("resolve_comment", { id: onPlaybook.id, how: "acted" })
      expect(wrongScope.isError).toBe(true)
      expect(problemOf(wrongScope)).toMatchObject({ reason: "not_found" })
      const resolved = await client.callTool("resolve_comment", { playbook, id: onPlaybook.id, how: "acted" })
      expect(resolved.structuredContent).toMatchObject({ id: onPlaybook.id, open: false, resolved_how: "acted" })
      expect(resolved.structuredContent.studio).toContain(`playbook=${playbook}&comment=${onPlaybook.id}`)
      const again = await client.callTool("resolve_comment", { playbook, id: onPlaybook.id, how: "dismissed" })
      expect(again.structuredContent).toEqual(resolved.structuredContent)
      const dismissed = await client.callTool("resolve_comment", { id: onOrg.id, how: "dismissed" })
      expect(dismissed.structuredContent).toMatchObject({ id: onOrg.id, open: false, resolved_how: "dismissed" })
      expect((await client.callTool("list_comments", { playbook })).structuredContent.comments).toEqual([])
      expect(
        (await client.callTool("list_comments", { playbook, open: false })).structuredContent.comments
      ).toHaveLength(1)
      await call("reopen_comment", { id: onPlaybook.id }, playbook)
      await call("reopen_comment_in_org", { id: onOrg.id })
      await client.close()
    })

    it("refuse a retired playbook's comment as conflict retired, and fields at their pointers", async () => {
      const retired = `${playbook}-old`
      await call("create_playbook", { playbook: retired, name: "Old" })
      const comment = await call("make_comment", { address: `playbooks/${retired}`, text: "x" }, retired)
      await call("retire_playbook", { playbook: retired })
      const client = await connectClient(kind, `${served.url}/mcp`, { key: fullKey.key })
      const refused = await client.callTool("resolve_comment", { playbook: retired, id: comment.id, how: "acted" })
      expect(refused.isError).toBe(true)
      expect(problemOf(refused)).toMatchObject({ reason: "conflict", kind: "retired" })
      expect((await client.callTool("list_comments", { playbook: retired })).structuredContent.comments).toHaveLength(1)
      expect(
        problemOf(await client.callTool("resolve_comment", { playbook, id: comment.id, how: "later" }))
      ).toMatchObject({
        reason: "invalid_input",
        errors: [{ pointer: "/how", detail: "how: must be acted or dismissed" }]
      })
      expect(problemOf(await client.callTool("list_comments", { playbook: "No!" })).errors[0].pointer).toBe("/playbook")
      await client.close()
    })
  })
})
