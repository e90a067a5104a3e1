import { catalog } from "@runledger/core"
import { afterEach, beforeEach, describe, expect, test } from "vitest"
import { touchPlaybook } from "./support/testOperations.js"
import { json, startServer, type TestServer } from "./support/testServer.js"

const keys = [
  {
    key: "admin-key",
    name: "admin",
    org: "acme",
    permissions: ["org:read", "org:write", "playbook:read", "playbook:write"]
  },
  { key: "reader-key", name: "reader", org: "acme", permissions: ["org:read", "playbook:read"] },
  { key: "inside-key", name: "inside", org: "acme", permissions: ["playbook:read"] },
  { key: "org-reader-key", name: "org-reader", org: "acme", permissions: ["org:read"] },
  {
    key: "limited-key",
    name: "limited",
    org: "acme",
    permissions: ["org:read", "org:write", "playbook:read", "playbook:write"],
    playbooks: ["finance", "payroll"]
  },
  { key: "other-key", name: "other", org: "other", permissions: ["org:read", "org:write"] }
] as const

let server: TestServer
beforeEach(async () => {
  server = await startServer({ localMode: false, apiKeys: keys }, { catalog: [...catalog, touchPlaybook] })
})
afterEach(() => server.close())

const base = "/v1/orgs/acme/playbooks"
const as = (key: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${key}` }
})
const create = (key: string, playbook: string) =>
  server.fetch(base, as(key, json("POST", { playbook, name: playbook })))
const reasonOf = async (response: Response) => ((await response.json()) as { reason: string }).reason

describe("credentials", () => {
  test("a missing credential is unauthenticated when the server is not in local mode", async () => {
    const response = await server.fetch(base)
    expect(response.status).toBe(401)
    expect(response.headers.get("content-type")).toBe("application/problem+json")
    expect(await response.json()).toMatchObject({ type: "https://on.auto/problems/unauthenticated", status: 401 })
  })

  test("an unknown key is unauthenticated", async () => {
    expect((await server.fetch(base, as("nope"))).status).toBe(401)
  })

  test("an Authorization header that is not Bearer is unauthenticated", async () => {
    for (const header of ["Basic YWRtaW46c2VjcmV0", "Bearer", "Bearer  ", "admin-key", "Bearer a b"]) {
      const response = await server.fetch(base, { headers: { authorization: header } })
      expect(response.status, header).toBe(401)
    }
  })

  test("the scheme is read in any case", async () => {
    expect((await server.fetch(base, { headers: { authorization: "bearer admin-key" } })).status).toBe(200)
  })

  test("the credential is checked before the path: an unknown path is 401 without a key, 404 with one", async () => {
    expect((await server.fetch("/v1/nothing")).status).toBe(401)
    const response = await server.fetch("/v1/nothing", as("admin-key"))
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ type: "https://on.auto/problems/not_found" })
  })
})

describe("permissions", () => {
  test("create_playbook needs org:write", async () => {
    for (const key of ["reader-key", "inside-key", "org-reader-key"]) {
      const response = await create(key, "finance")
      expect(response.status, key).toBe(403)
      expect(await reasonOf(response)).toBe("forbidden")
    }
    expect(await server.factCount()).toBe(0)
    expect((await create("admin-key", "finance")).status).toBe(201)
  })

  test("list_playbooks accepts org:read or playbook:read; get_playbook needs org:read", async () => {
    await create("admin-key", "finance")
    for (const key of ["reader-key", "inside-key", "org-reader-key"])
      expect((await server.fetch(base, as(key))).status, key).toBe(200)
    expect((await server.fetch(`${base}/finance`, as("inside-key"))).status).toBe(403)
    expect((await server.fetch(`${base}/finance`, as("org-reader-key"))).status).toBe(200)
  })

  test("update, retire and restore need org:write", async () => {
    await create("admin-key", "finance")
    const attempts = [
      () => server.fetch(`${base}/finance`, as("reader-key", json("PUT", { name: "x" }))),
      () => server.fetch(`${base}/finance/retire`, as("reader-key", { method: "POST" })),
      () => server.fetch(`${base}/finance/restore`, as("reader-key", { method: "POST" }))
    ]
    for (const attempt of attempts) expect((await attempt()).status).toBe(403)
  })

  test("a playbook-scoped command needs playbook:write; render needs playbook:read", async () => {
    await create("admin-key", "finance")
    expect((await server.fetch(`${base}/finance/touch`, as("reader-key", { method: "POST" }))).status).toBe(403)
    expect((await server.fetch(`${base}/finance/touch`, as("admin-key", { method: "POST" }))).status).toBe(200)
    expect((await server.fetch(`${base}/finance/render`, as("org-reader-key", { method: "POST" }))).status).toBe(403)
    expect((await server.fetch(`${base}/finance/render`, as("inside-key", { method: "POST" }))).status).toBe(404)
  })

  test("a key of another org is forbidden in this one", async () => {
    const response = await server.fetch(base, as("other-key"))
    expect(response.status).toBe(403)
    expect(await reasonOf(response)).toBe("forbidden")
    expect((await server.fetch("/v1/orgs/other/playbooks", as("other-key"))).status).toBe(200)
  })
})

describe("a key limited to some playbooks", () => {
  test("creates only playbooks on its list", async () => {
    expect((await create("limited-key", "marketing")).status).toBe(403)
    expect((await create("limited-key", "finance")).status).toBe(201)
  })

  test("lists only its playbooks and is forbidden from others, whether they exist or not", async () => {
    await create("admin-key", "finance")
    await create("admin-key", "marketing")
    const list = await (await server.fetch(base, as("limited-key"))).json()
    expect(list.playbooks.map((playbook: { id: string }) => playbook.id)).toEqual(["finance"])
    expect((await server.fetch(`${base}/marketing`, as("limited-key"))).status).toBe(403)
    expect((await server.fetch(`${base}/missing-one`, as("limited-key"))).status).toBe(403)
    expect((await server.fetch(`${base}/marketing/render`, as("limited-key", { method: "POST" }))).status).toBe(403)
    expect((await server.fetch(`${base}/marketing/retire`, as("limited-key", { method: "POST" }))).status).toBe(403)
    expect((await server.fetch(`${base}/finance`, as("limited-key"))).status).toBe(200)
  })
})

describe("the welcome of list_playbooks", () => {
  const welcomeOf = async (key: string) =>
    ((await (await server.fetch(base, as(key))).json()) as { welcome?: string }).welcome

  test("goes to a caller acting on every playbook with org:write, on an org with no playbook", async () => {
    expect(await welcomeOf("admin-key")).toEqual(expect.any(String))
  })

  test("is not given to a reader or a limited key", async () => {
    expect(await welcomeOf("reader-key")).toBeUndefined()
    expect(await welcomeOf("inside-key")).toBeUndefined()
    expect(await welcomeOf("limited-key")).toBeUndefined()
  })

  test("is given to nobody once the org has a playbook, even a retired one", async () => {
    await create("admin-key", "finance")
    await server.fetch(`${base}/finance/retire`, as("admin-key", { method: "POST" }))
    expect(await welcomeOf("admin-key")).toBeUndefined()
  })
})

describe("local mode", () => {
  test("trusts a request without a credential from a loopback address only", async () => {
    const local = await startServer({ localMode: true })
    try {
      expect((await local.fetch("/v1/orgs/local/playbooks")).status).toBe(200)
      const request = () => new Request("http://runtime.example/v1/orgs/local/playbooks")
      expect((await local.handler(request(), { remoteAddress: "::ffff:127.0.0.1" })).status).toBe(200)
      expect((await local.handler(request(), { remoteAddress: "10.1.2.3" })).status).toBe(401)
      expect((await local.handler(request())).status).toBe(401)
    } finally {
      await local.close()
    }
  })
})
