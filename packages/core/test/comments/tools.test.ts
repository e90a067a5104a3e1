import { annotationsOf, catalog } from "@runledger/core"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { testKeys } from "../runtimeFixture.js"
import { type CommentsFixture, makeCommentsFixture } from "./commentsFixture.js"

let f: CommentsFixture
beforeEach(async () => {
  f = await makeCommentsFixture({
    apiKeys: [...testKeys, { key: "org-reader", name: "org-reader", org: "acme", permissions: ["org:read"] }]
  })
})
afterEach(() => f.runtime.dispose())

const named = (name: string) => catalog.filter((operation) => operation.name === name)

describe("the comment operations in the catalog", () => {
  it("serve each playbook operation and its _in_org twin over HTTP, and make and reopen over HTTP alone", () => {
    for (const name of ["make_comment", "list_comments", "resolve_comment", "reopen_comment"]) {
      const [inPlaybook] = named(name).filter((operation) => operation.served.http)
      const [inOrg] = named(`${name}_in_org`)
      expect(inPlaybook).toMatchObject({ scope: "playbook", permission: "playbook:read", route: inOrg.route })
      expect(inOrg).toMatchObject({
        scope: "org",
        permission: ["org:read", "playbook:read"],
        served: { http: true, mcp: [] }
      })
      expect(inPlaybook.route.path.startsWith("/comments")).toBe(true)
    }
    for (const name of ["make_comment", "reopen_comment"])
      expect(named(name).map((operation) => operation.served.mcp)).toEqual([[]])
  })

  it("give list_comments and resolve_comment a tool on a playbook endpoint and one with playbook optional elsewhere", () => {
    for (const name of ["list_comments", "resolve_comment"]) {
      const [inPlaybook, tool] = named(name)
      expect(inPlaybook.served).toEqual({ http: true, mcp: ["playbook"] })
      expect(tool).toMatchObject({ scope: "org", served: { http: false, mcp: ["root", "org", "directory"] } })
      expect(tool.description).toBe(named(`${name}_in_org`)[0].description)
      expect(annotationsOf(tool)).toEqual(annotationsOf(inPlaybook))
    }
    expect(annotationsOf(named("resolve_comment")[1])).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false
    })
    expect(annotationsOf(named("list_comments")[1])).toMatchObject({ readOnlyHint: true, idempotentHint: true })
  })
})

describe("list_comments and resolve_comment with playbook optional", () => {
  it("act on the organization's own comments without playbook, and on the playbook's with it", async () => {
    const inOrg = await f.make({ address: "org/settings/billing", text: "Which plan?" }, null)
    const inFinance = await f.make({ address: "playbooks/finance", text: "Rename it" })
    const orgPage = await f.answer(f.tool("list_comments", {}))
    expect((orgPage.output as any).comments.map((comment: any) => comment.id)).toEqual([inOrg.id])
    const financePage = await f.answer(f.tool("list_comments", { playbook: "finance", address: "playbooks/finance" }))
    expect((financePage.output as any).comments).toEqual([inFinance])
    expect(
      (await f.answer(f.tool("resolve_comment", { playbook: "finance", id: inFinance.id, how: "acted" }))).output
    ).toMatchObject({
      id: inFinance.id,
      open: false,
      resolved_how: "acted"
    })
    expect((await f.answer(f.tool("resolve_comment", { id: inOrg.id, how: "dismissed" }))).output).toMatchObject({
      id: inOrg.id,
      open: false,
      resolved_how: "dismissed"
    })
    expect((await f.commentFacts()).map((fact) => fact.metadata.stream)).toEqual([
      `org/acme/comments/${inOrg.id}`,
      `playbook/acme/finance/comments/${inFinance.id}`,
      `playbook/acme/finance/comments/${inFinance.id}`,
      `org/acme/comments/${inOrg.id}`
    ])
  })

  it("answer not_found for a comment of the other scope", async () => {
    const inFinance = await f.make({ address: "playbooks/finance", text: "x" })
    expect(await f.refusal(f.tool("resolve_comment", { id: inFinance.id, how: "acted" }))).toMatchObject({
      reason: "not_found"
    })
    expect(
      await f.refusal(f.tool("resolve_comment", { playbook: "sales", id: inFinance.id, how: "acted" }))
    ).toMatchObject({
      reason: "not_found"
    })
  })

  it("refuse as the playbook's own operation does: retired, not accessible, unknown, or without playbook:read", async () => {
    const comment = await f.make({ address: "playbooks/archive", text: "x" }, "archive")
    await f.answer(f.call("retire_playbook", { playbook: "archive" }, null))
    const direct = await f.refusal(f.call("resolve_comment", { id: comment.id, how: "acted" }, "archive"))
    const routed = await f.refusal(f.tool("resolve_comment", { playbook: "archive", id: comment.id, how: "acted" }))
    expect(routed).toEqual(direct)
    expect(routed).toMatchObject({ reason: "conflict", kind: "retired" })
    expect((await f.answer(f.tool("list_comments", { playbook: "archive" }))).output).toMatchObject({
      comments: [{ id: comment.id }]
    })
    expect(await f.refusal(f.tool("list_comments", { playbook: "archive" }, "limited"))).toMatchObject({
      reason: "forbidden"
    })
    expect(await f.refusal(f.tool("list_comments", { playbook: "ghost" }))).toMatchObject({ reason: "not_found" })
    expect(await f.refusal(f.tool("list_comments", { playbook: "finance" }, "org-reader"))).toMatchObject({
      reason: "forbidden"
    })
    expect((await f.answer(f.tool("list_comments", {}, "org-reader"))).output).toMatchObject({ comments: [] })
  })

  it("refuse each field at its pointer, the playbook argument among them", async () => {
    expect((await f.refusal(f.tool("list_comments", { playbook: "Finance!" }))).errors?.[0].pointer).toBe("/playbook")
    expect((await f.refusal(f.tool("list_comments", { playbook: "finance", limit: 0 }))).errors?.[0].pointer).toBe(
      "/limit"
    )
    expect((await f.refusal(f.tool("resolve_comment", { id: "x", how: "acted" }))).errors?.[0].pointer).toBe("/id")
    expect((await f.refusal(f.tool("list_comments", { address: "playbooks/finance" }))).errors?.[0].pointer).toBe(
      "/address"
    )
  })
})
