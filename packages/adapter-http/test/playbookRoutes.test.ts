import { catalog } from "@runledger/core"
import { afterEach, beforeEach, describe, expect, test } from "vitest"
import { touchPlaybook } from "./support/testOperations.js"
import { json, startServer, type TestServer } from "./support/testServer.js"

let server: TestServer
beforeEach(async () => {
  server = await startServer({}, { catalog: [...catalog, touchPlaybook] })
})
afterEach(() => server.close())

const base = "/v1/orgs/local/playbooks"
const create = (playbook: string, more: Record<string, unknown> = {}) =>
  server.fetch(base, json("POST", { playbook, name: `  ${playbook} name  `, ...more }))
const post = (path: string) => server.fetch(path, { method: "POST" })

describe("the playbook routes in local mode", () => {
  test("create_playbook answers 201 with the playbook, trimmed, never cached", async () => {
    const response = await create("finance", { description: " Money " })
    expect(response.status).toBe(201)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("cross-origin-resource-policy")).toBe("same-origin")
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    expect(await response.json()).toMatchObject({
      id: "finance",
      name: "finance name",
      description: "Money",
      status: "active",
      created_by: { id: "local" }
    })
  })

  test("create_playbook refuses an id the org has or had as conflict, and records nothing", async () => {
    expect((await create("finance")).status).toBe(201)
    const facts = await server.factCount()
    const again = await create("finance")
    expect(again.status).toBe(409)
    expect(again.headers.get("content-type")).toBe("application/problem+json")
    expect(await again.json()).toMatchObject({ type: "https://on.auto/problems/conflict", reason: "conflict" })
    expect((await post(`${base}/finance/retire`)).status).toBe(200)
    expect((await create("finance")).status).toBe(409)
    expect(await server.factCount()).toBe(facts + 1)
  })

  test("list_playbooks lists active playbooks, and retired ones when include_retired is true", async () => {
    await create("alpha")
    await create("beta")
    await post(`${base}/beta/retire`)
    const active = await (await server.fetch(base)).json()
    expect(active.playbooks.map((playbook: { id: string }) => playbook.id)).toEqual(["alpha"])
    const all = await (await server.fetch(`${base}?include_retired=true`)).json()
    expect(all.playbooks.map((playbook: { id: string }) => playbook.id).sort()).toEqual(["alpha", "beta"])
    const none = await (await server.fetch(`${base}?include_retired=false`)).json()
    expect(none.playbooks).toHaveLength(1)
    expect(none.welcome).toBeUndefined()
  })

  test("list_playbooks of an empty org welcomes the local developer", async () => {
    const list = await (await server.fetch(base)).json()
    expect(list.playbooks).toEqual([])
    expect(typeof list.welcome).toBe("string")
  })

  test("get_playbook reads a playbook with its page, retired or not; an unknown id is not_found", async () => {
    await create("finance")
    await server.fetch(`${base}/finance`, json("PUT", { page: "title: Finance\n" }))
    await post(`${base}/finance/retire`)
    const response = await server.fetch(`${base}/finance`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      id: "finance",
      status: "retired",
      page: { source: "title: Finance\n" }
    })
    const missing = await server.fetch(`${base}/nothing-here`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ reason: "not_found" })
  })

  test("HEAD of get_playbook answers its headers without a body", async () => {
    await create("finance")
    const response = await server.fetch(`${base}/finance`, { method: "HEAD" })
    expect(response.status).toBe(200)
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(await response.text()).toBe("")
  })

  test("update_playbook changes the fields given; an update that changes nothing records nothing", async () => {
    await create("finance")
    const updated = await server.fetch(`${base}/finance`, json("PUT", { description: "Money in and out" }))
    expect(updated.status).toBe(200)
    expect(await updated.json()).toMatchObject({ name: "finance name", description: "Money in and out" })
    const facts = await server.factCount()
    const same = await server.fetch(`${base}/finance`, json("PUT", { description: "Money in and out" }))
    expect(same.status).toBe(200)
    expect(await server.factCount()).toBe(facts)
  })

  test("update_playbook refuses a retired playbook as conflict and an unknown one as not_found", async () => {
    await create("finance")
    await post(`${base}/finance/retire`)
    const retired = await server.fetch(`${base}/finance`, json("PUT", { name: "New" }))
    expect(retired.status).toBe(409)
    expect(await retired.json()).toMatchObject({ reason: "conflict", kind: "retired" })
    expect((await server.fetch(`${base}/unknown-one`, json("PUT", { name: "New" }))).status).toBe(404)
  })

  test("update_playbook refuses an empty change as invalid_input", async () => {
    await create("finance")
    const response = await server.fetch(`${base}/finance`, json("PUT", {}))
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({ reason: "invalid_input" })
  })

  test("retire_playbook and restore_playbook: idempotent; unknown ids are not_found", async () => {
    await create("finance")
    const retired = await post(`${base}/finance/retire`)
    expect(await retired.json()).toMatchObject({ status: "retired", retired_at: expect.any(String) })
    const facts = await server.factCount()
    expect((await post(`${base}/finance/retire`)).status).toBe(200)
    expect(await server.factCount()).toBe(facts)
    const restored = await post(`${base}/finance/restore`)
    expect(await restored.json()).toMatchObject({ status: "active" })
    expect((await post(`${base}/finance/restore`)).status).toBe(200)
    expect(await server.factCount()).toBe(facts + 1)
    for (const action of ["retire", "restore"]) expect((await post(`${base}/unknown-one/${action}`)).status).toBe(404)
  })

  test("render_playbook_page: not_found for a playbook without a page and for an unknown playbook", async () => {
    await create("finance")
    const response = await post(`${base}/finance/render`)
    expect(response.status).toBe(404)
    expect((await response.json()).detail).toContain("has no page")
    expect((await post(`${base}/unknown-one/render`)).status).toBe(404)
  })

  test("render_playbook_page reads a retired playbook, as queries do", async () => {
    await create("finance")
    await post(`${base}/finance/retire`)
    const response = await post(`${base}/finance/render`)
    expect(response.status).toBe(404)
    expect((await response.json()).kind).toBeUndefined()
  })

  test("a command inside a retired playbook is refused as conflict with the kind retired, recording nothing", async () => {
    await create("finance")
    expect(await (await post(`${base}/finance/touch`)).json()).toEqual({ touched: "finance" })
    await post(`${base}/finance/retire`)
    const facts = await server.factCount()
    const response = await post(`${base}/finance/touch`)
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({ type: "https://on.auto/problems/conflict", kind: "retired" })
    expect(await server.factCount()).toBe(facts)
    await post(`${base}/finance/restore`)
    expect((await post(`${base}/finance/touch`)).status).toBe(200)
  })

  test("the core's playbook-scoped commands are refused in a retired playbook before their input is read", async () => {
    await create("finance")
    await post(`${base}/finance/retire`)
    const facts = await server.factCount()
    for (const path of [
      "/definitions/workflow",
      "/definitions/workflow/daily/run",
      "/runs/0199a3c4-7d2e-7c1a-9b3f-2f1e0d9c8b7a/cancel"
    ]) {
      const response = await server.fetch(`${base}/finance${path}`, json("POST", {}))
      expect(response.status, path).toBe(409)
      expect(await response.json()).toMatchObject({ reason: "conflict", kind: "retired" })
    }
    expect(await server.factCount()).toBe(facts)
  })

  test("an invalid playbook id is invalid_input at its pointer", async () => {
    const response = await server.fetch(base, json("POST", { playbook: "X", name: "n" }))
    expect(response.status).toBe(422)
    const problem = await response.json()
    expect(problem.errors.map((error: { pointer: string }) => error.pointer)).toEqual(["/playbook"])
  })
})
