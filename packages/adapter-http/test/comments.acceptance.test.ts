import { afterAll, beforeAll, expect, it } from "vitest"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./acceptance/storeServers.js"

const keys = [
  {
    key: "full",
    name: "build-bot",
    org: "acme",
    permissions: ["org:read", "org:write", "playbook:read", "playbook:write"]
  },
  { key: "reader", name: "reader", org: "acme", permissions: ["org:read", "playbook:read"] },
  { key: "limited", name: "limited", org: "acme", permissions: ["playbook:read"], playbooks: ["nothing-here"] }
] as const
const as = (key: string) => ({ authorization: `Bearer ${key}` })
const run = "019a4012-7c3e-7d10-9b2a-4e6f8a1c2d3e"
const step = (playbook: string) => `${playbook}/definitions/workflow/close-the-week/4/steps/do/1/review`
const studio = "https://studio.on.auto/?server=https%3A%2F%2Fruntime.example.com"

onEveryStore("comments over HTTP", (store) => {
  let server: AcceptanceServer
  let count = 0
  beforeAll(async () => {
    server = await startAcceptanceServer(store(), {
      localMode: false,
      apiKeys: keys.map((key) => ({
        ...key,
        permissions: [...key.permissions],
        ...("playbooks" in key ? { playbooks: [...key.playbooks] } : {})
      })),
      studioOrigin: "https://studio.on.auto",
      publicUrl: "https://runtime.example.com"
    })
  }, 60_000)
  afterAll(() => server?.close())

  /** Sends a request as a key, the full one unless named. */
  const send = (method: string, path: string, body?: unknown, key = "full") => server.send(method, path, body, as(key))
  /** A new playbook for one test: its id and the path of its comments. */
  const playbook = async () => {
    const id = `pb-${++count}-${Math.random().toString(36).slice(2, 8)}`
    expect((await send("POST", "/v1/orgs/acme/playbooks", { playbook: id, name: id })).status).toBe(201)
    return { id, comments: `/v1/orgs/acme/playbooks/${id}/comments` }
  }
  const orgComments = "/v1/orgs/acme/comments"
  /** Checks a refusal's status, reason and issues. */
  const refused = (
    response: { status: number; headers: Headers; body: any },
    status: number,
    reason: string,
    errors?: ReadonlyArray<{ pointer: string; detail: string }>
  ) => {
    expect(response.status).toBe(status)
    expect(response.headers.get("content-type")).toBe("application/problem+json")
    expect(response.body.reason).toBe(reason)
    if (errors !== undefined) expect(response.body.errors).toEqual(errors)
  }

  it("makes a comment: 201 with every field, its Studio link, and comment_made on its own stream", async () => {
    const { id, comments } = await playbook()
    const before = await server.factCount()
    const made = await send("POST", comments, {
      address: step(id),
      text: "Flag any entry over $10,000 for Priya before the week closes.",
      anchor: { x: 0.6125, y: 0.4 }
    })
    expect(made.status).toBe(201)
    expect(made.headers.get("content-type")).toBe("application/json")
    expect(Object.keys(made.body).sort()).toEqual(
      [
        "address",
        "anchor",
        "at",
        "by",
        "by_name",
        "id",
        "open",
        "reopened_at",
        "reopened_by",
        "resolved_at",
        "resolved_by",
        "resolved_how",
        "studio",
        "text"
      ].sort()
    )
    expect(made.body).toMatchObject({
      address: step(id),
      text: "Flag any entry over $10,000 for Priya before the week closes.",
      anchor: { x: 0.6125, y: 0.4 },
      by: "key:build-bot",
      by_name: "build-bot",
      open: true,
      resolved_at: null,
      resolved_by: null,
      resolved_how: null,
      reopened_at: null,
      reopened_by: null,
      studio: `${studio}&playbook=${id}&workflow=close-the-week&version=4&step=do%2F1%2Freview&comment=${made.body.id}`
    })
    expect(await server.factCount()).toBe(before + 1)
  })

  it("lists, resolves, resolves again, reopens and lists again, as the seed's examples do", async () => {
    const { id, comments } = await playbook()
    const onResult = (
      await send(
        "POST",
        comments,
        { address: `${id}/runs/${run}/result/2`, text: "This total leaves out the refunds." },
        "reader"
      )
    ).body
    const onRequest = (await send("POST", comments, { address: `${id}/${run}`, text: "Who answers this?" })).body
    const underRun = await send("GET", `${comments}?address=${encodeURIComponent(`${id}/runs/${run}`)}&under=true`)
    expect(underRun.status).toBe(200)
    expect(underRun.body).toEqual({ comments: [onResult], has_more: false, next_cursor: null })
    expect(onResult.studio).toBe(`${studio}&playbook=${id}&ledger=&run=${run}&block=2&comment=${onResult.id}`)
    const before = await server.factCount()
    const resolved = await send("POST", `${comments}/${onResult.id.toUpperCase()}/resolve`, { how: "acted" })
    expect(resolved.status).toBe(200)
    expect(resolved.body).toMatchObject({
      id: onResult.id,
      open: false,
      resolved_by: "key:build-bot",
      resolved_how: "acted"
    })
    const again = await send("POST", `${comments}/${onResult.id}/resolve`, { how: "dismissed" }, "reader")
    expect(again.body).toEqual(resolved.body)
    expect(await server.factCount()).toBe(before + 1)
    expect((await send("GET", comments)).body.comments).toEqual([onRequest])
    expect((await send("GET", `${comments}?open=false`)).body.comments).toEqual([resolved.body])
    const reopened = await server.send("POST", `${comments}/${onResult.id}/reopen`, undefined, as("reader"))
    expect(reopened.status).toBe(200)
    expect(reopened.body).toMatchObject({
      ...onResult,
      reopened_at: expect.any(String),
      open: true,
      resolved_at: null,
      resolved_by: null,
      resolved_how: null,
      reopened_by: "key:reader"
    })
    expect((await send("POST", `${comments}/${onResult.id}/reopen`)).body).toEqual(reopened.body)
    expect(await server.factCount()).toBe(before + 2)
    expect((await send("GET", comments)).body.comments.map((comment: any) => comment.id)).toEqual([
      onRequest.id,
      onResult.id
    ])
  })

  it("pages by limit and cursor, and refuses a limit or cursor that does not fit", async () => {
    const { id, comments } = await playbook()
    const other = await playbook()
    for (let index = 0; index < 5; index++)
      await send("POST", comments, { address: `playbooks/${id}`, text: `n${index}` })
    await send("POST", other.comments, { address: `playbooks/${other.id}`, text: "x" })
    await send("POST", other.comments, { address: `playbooks/${other.id}`, text: "y" })
    const texts: Array<string> = []
    let path = `${comments}?limit=2`
    for (;;) {
      const page = await send("GET", path)
      texts.push(...page.body.comments.map((comment: any) => comment.text))
      if (page.body.next_cursor === null) break
      expect(page.body.has_more).toBe(true)
      path = `${comments}?limit=2&cursor=${page.body.next_cursor}`
    }
    expect(texts.sort()).toEqual(["n0", "n1", "n2", "n3", "n4"])
    const words = "limit: must be a whole number from 1 to 200"
    refused(await send("GET", `${comments}?limit=0`), 422, "invalid_input", [{ pointer: "/limit", detail: words }])
    refused(await send("GET", `${comments}?limit=201`), 422, "invalid_input", [{ pointer: "/limit", detail: words }])
    refused(await send("GET", `${comments}?limit=ten`), 422, "invalid_input", [{ pointer: "/limit", detail: words }])
    const foreign = (await send("GET", `${other.comments}?limit=1`)).body.next_cursor
    const cursorWords = [
      { pointer: "/cursor", detail: "cursor: is not a cursor this listing gave; ask again without it." }
    ]
    refused(await send("GET", `${comments}?cursor=${foreign}`), 422, "invalid_input", cursorWords)
    refused(await send("GET", `${orgComments}?cursor=${foreign}`), 422, "invalid_input", cursorWords)
    refused(await send("GET", `${comments}?cursor=nope`), 422, "invalid_input", cursorWords)
    refused(await send("GET", `${comments}?under=true`), 422, "invalid_input", [
      { pointer: "/under", detail: "under: keeps what is under an address; give the address too, or leave under out." }
    ])
    refused(await send("GET", `${comments}?open=maybe`), 422, "invalid_input")
  })

  it("refuses each field of make_comment at its pointer in the seed's words, the whole input before the address", async () => {
    const { id, comments } = await playbook()
    const before = await server.factCount()
    const anchorWords = "anchor: Expected x and y, each a number from 0 to 1 with at most 4 decimals"
    refused(
      await send("POST", comments, { address: "nowhere", text: "x", anchor: { x: 1.2, y: 0 } }),
      422,
      "invalid_input",
      [{ pointer: "/anchor", detail: anchorWords }]
    )
    refused(
      await send("POST", comments, { address: "nowhere", text: "  ", anchor: { x: 0.5, y: 0.123456 } }),
      422,
      "invalid_input",
      [
        { pointer: "/text", detail: "text: cannot be empty or all white space" },
        { pointer: "/anchor", detail: anchorWords }
      ]
    )
    refused(
      await send("POST", comments, { address: `playbooks/${id}`, text: "x", anchor: "here" }),
      422,
      "invalid_input",
      [{ pointer: "/anchor", detail: "anchor: Expected object | null" }]
    )
    refused(
      await send("POST", comments, { address: `playbooks/${id}`, text: "x", anchor: { y: 0, z: 1 } }),
      422,
      "invalid_input",
      [
        { pointer: "/anchor/x", detail: "anchor, then x: Missing key" },
        { pointer: "/anchor/z", detail: "anchor, then z: Expected no excess property" }
      ]
    )
    refused(
      await send("POST", comments, { address: `playbooks/${id}`, text: "x", anchor: { x: 0, y: "1" } }),
      422,
      "invalid_input",
      [{ pointer: "/anchor/y", detail: "anchor, then y: Expected number" }]
    )
    refused(
      await send("POST", comments, { address: `playbooks/${id}`, text: "x".repeat(4001) }),
      422,
      "invalid_input",
      [{ pointer: "/text", detail: "text: must be at most 4,000 characters as sent, white space around it included" }]
    )
    const lone = await fetch(`${server.url}${comments}`, {
      method: "POST",
      headers: { ...as("full"), "content-type": "application/json" },
      body: `{"address":"playbooks/${id}","text":"a\\ud800b"}`
    })
    expect(lone.status).toBe(422)
    expect((await lone.json()).errors).toEqual([{ pointer: "/text", detail: "text: holds an unpaired surrogate" }])
    refused(await send("POST", comments, { address: `org/settings/billing`, text: "x" }), 422, "invalid_input", [
      {
        pointer: "/address",
        detail:
          "address: is of the organization's own things, whose comments belong to no playbook; use the organization's comments."
      }
    ])
    refused(
      await send("POST", comments, { address: `playbooks/${id}/parts/${"p".repeat(600)}`, text: "x" }),
      422,
      "invalid_input",
      [{ pointer: "/address", detail: "address: must be at most 512 characters" }]
    )
    expect(await server.factCount()).toBe(before)
    const nullAnchor = await send("POST", comments, { address: `playbooks/${id}`, text: " kept \n", anchor: null })
    expect([nullAnchor.status, nullAnchor.body.anchor, nullAnchor.body.text]).toEqual([201, null, "kept"])
  })

  it("keeps with under what is under each address, by the rules of each thing", async () => {
    const { id, comments } = await playbook()
    const event = "019a4013-0000-7000-8000-000000000001"
    const definition = `${id}/definitions/workflow/close-the-week`
    const addresses = [
      `${id}/runs/${run}`,
      `${id}/runs/${run}/parts/total`,
      `${id}/runs/${run}/events/${event}`,
      `${id}/runs/${run}/result/2`,
      `${id}/${run}`,
      `${definition}/4`,
      `${definition}/4/parts/diagram`,
      `${definition}/4/steps/do/1/review`,
      `${definition}/4/steps/do/1/review/try/0/assess`,
      `${definition}/3/steps/do/0/fetch`,
      `playbooks/${id}`,
      `playbooks/${id}/parts/description`
    ]
    for (const address of addresses)
      expect((await send("POST", comments, { address, text: address })).status, address).toBe(201)
    const under = async (address: string) => {
      const page = await send("GET", `${comments}?under=true&limit=200&address=${encodeURIComponent(address)}`)
      expect(page.status, address).toBe(200)
      return page.body.comments.map((comment: { address: string }) => comment.address).sort()
    }
    expect(await under(`${id}/runs/${run}`)).toEqual(addresses.slice(0, 4).sort())
    expect(await under(`${definition}/4`)).toEqual(addresses.slice(5, 9).sort())
    expect(await under(definition)).toEqual(addresses.slice(5, 10).sort())
    expect(await under(`playbooks/${id}`)).toEqual(addresses.slice(10).sort())
    for (const alone of [addresses[2], addresses[3], addresses[4], addresses[7], addresses[11]])
      expect(await under(alone!)).toEqual([alone])
    const versionless = await send("GET", `${comments}?address=${encodeURIComponent(definition)}`)
    expect([versionless.status, versionless.body.errors?.[0]?.pointer]).toEqual([422, "/address"])
  })

  it("refuses a text holding a control character other than a tab or a line break, or a noncharacter", async () => {
    const { id, comments } = await playbook()
    const before = await server.factCount()
    for (const [text, detail] of [
      ["a\u0007b", "text: holds a control character; only a tab and a line break are taken"],
      ["a\u007fb", "text: holds a control character; only a tab and a line break are taken"],
      ["a\u0085b", "text: holds a control character; only a tab and a line break are taken"],
      ["a\ufdd0", "text: holds a noncharacter"],
      ["a\u{10ffff}", "text: holds a noncharacter"]
    ])
      refused(await send("POST", comments, { address: `playbooks/${id}`, text }), 422, "invalid_input", [
        { pointer: "/text", detail: detail! }
      ])
    expect(await server.factCount()).toBe(before)
    const kept = await send("POST", comments, { address: `playbooks/${id}`, text: "\tone\n\ttwo\r\n" })
    expect([kept.status, kept.body.text]).toEqual([201, "one\n\ttwo"])
  })

  it("refuses resolve and reopen of what is not there, and a how or id that does not fit", async () => {
    const { id, comments } = await playbook()
    const made = (await send("POST", comments, { address: `playbooks/${id}`, text: "x" })).body
    refused(await send("POST", `${comments}/${made.id}/resolve`, { how: "done" }), 422, "invalid_input", [
      { pointer: "/how", detail: "how: must be acted or dismissed" }
    ])
    refused(await send("POST", `${comments}/not-a-uuid/resolve`, { how: "acted" }), 422, "invalid_input", [
      { pointer: "/id", detail: "id: must be a UUID" }
    ])
    refused(await send("POST", `${comments}/not-a-uuid/reopen`), 422, "invalid_input")
    refused(
      await send("POST", `${comments}/019a4120-5b6c-7d8e-9f01-2a3b4c5d6e7f/resolve`, { how: "acted" }),
      404,
      "not_found"
    )
    refused(await send("POST", `${comments}/019a4120-5b6c-7d8e-9f01-2a3b4c5d6e7f/reopen`), 404, "not_found")
    refused(await send("POST", `${orgComments}/${made.id}/resolve`, { how: "acted" }), 404, "not_found")
    refused(await send("GET", "/v1/orgs/acme/playbooks/ghost-book/comments"), 404, "not_found")
    refused(await send("GET", comments, undefined, "limited"), 403, "forbidden")
  })

  it("refuses make, resolve and reopen in a retired playbook as conflict retired, and still lists its comments", async () => {
    const { id, comments } = await playbook()
    const open = (await send("POST", comments, { address: `playbooks/${id}`, text: "open" })).body
    const closed = (await send("POST", comments, { address: `playbooks/${id}`, text: "closed" })).body
    await send("POST", `${comments}/${closed.id}/resolve`, { how: "acted" })
    expect((await send("POST", `/v1/orgs/acme/playbooks/${id}/retire`)).status).toBe(200)
    const before = await server.factCount()
    for (const [path, body] of [
      [comments, { address: "nowhere", text: "" }],
      [`${comments}/${open.id}/resolve`, { how: "acted" }],
      [`${comments}/${closed.id}/reopen`, undefined]
    ] as const) {
      const response = await send("POST", path, body)
      refused(response, 409, "conflict")
      expect(response.body.kind).toBe("retired")
    }
    expect(await server.factCount()).toBe(before)
    expect((await send("GET", comments)).body.comments.map((comment: any) => comment.id)).toEqual([open.id])
    expect((await send("GET", `${comments}?open=false`)).body.comments.map((comment: any) => comment.id)).toEqual([
      closed.id
    ])
  })

  it("serves the organization's own comments under /v1/orgs/{org}/comments", async () => {
    const page = `page-${++count}${Math.random().toString(36).slice(2, 6)}`.replace(/[^a-z0-9-]/g, "")
    const made = await send(
      "POST",
      orgComments,
      { address: `org/settings/${page}`, text: "Which plan?", anchor: { x: 0.18, y: 0.5 } },
      "limited"
    )
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ by: "key:limited", studio: `${studio}&settings=${page}&comment=${made.body.id}` })
    const listed = await send(
      "GET",
      `${orgComments}?address=${encodeURIComponent(`org/settings/${page}`)}&under=true`,
      undefined,
      "limited"
    )
    expect(listed.body.comments).toEqual([made.body])
    const { id } = await playbook()
    refused(await send("POST", orgComments, { address: `playbooks/${id}`, text: "x" }), 422, "invalid_input", [
      {
        pointer: "/address",
        detail: `address: is of the playbook ${id}, whose comments are that playbook's; use its comments.`
      }
    ])
    const resolved = await send("POST", `${orgComments}/${made.body.id}/resolve`, { how: "dismissed" }, "limited")
    expect(resolved.body).toMatchObject({ open: false, resolved_how: "dismissed", resolved_by: "key:limited" })
    const reopened = await send("POST", `${orgComments}/${made.body.id}/reopen`, undefined, "reader")
    expect(reopened.body).toMatchObject({ open: true, reopened_by: "key:reader" })
    refused(
      await send("POST", `/v1/orgs/acme/playbooks/${id}/comments/${made.body.id}/resolve`, { how: "acted" }),
      404,
      "not_found"
    )
  })

  it("lists the eight routes in the OpenAPI document under the seed's operationIds", async () => {
    const document = (await send("GET", "/v1/openapi.json")).body
    const operationIds = [
      ["/orgs/{org}/playbooks/{playbook}/comments", "post", "make_comment"],
      ["/orgs/{org}/playbooks/{playbook}/comments", "get", "list_comments"],
      ["/orgs/{org}/playbooks/{playbook}/comments/{id}/resolve", "post", "resolve_comment"],
      ["/orgs/{org}/playbooks/{playbook}/comments/{id}/reopen", "post", "reopen_comment"],
      ["/orgs/{org}/comments", "post", "make_comment_in_org"],
      ["/orgs/{org}/comments", "get", "list_comments_in_org"],
      ["/orgs/{org}/comments/{id}/resolve", "post", "resolve_comment_in_org"],
      ["/orgs/{org}/comments/{id}/reopen", "post", "reopen_comment_in_org"]
    ]
    for (const [path, method, operationId] of operationIds)
      expect(document.paths[path]?.[method]?.operationId, `${method} ${path}`).toBe(operationId)
    const list = document.paths["/orgs/{org}/comments"].get
    expect(list.parameters.map((parameter: any) => parameter.name)).toEqual([
      "org",
      "address",
      "under",
      "open",
      "limit",
      "cursor"
    ])
  })
})
