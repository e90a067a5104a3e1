import { Caller } from "@runledger/core"
import { describe, expect, it } from "vitest"
import { endpointOf } from "../src/Endpoint.js"
import { instructionsFor } from "../src/instructions.js"

const key = (name: string) =>
  new Caller({ id: `key:${name}`, name, kind: "key", org: "acme", permissions: ["org:read"], playbooks: null })

describe("the instructions", () => {
  const firstTwo = "a workflow runs the parts in order."

  it("say to read start first, both sentences within 512 characters, whatever the caller is called", () => {
    for (const name of ["b", "x".repeat(2_000)]) {
      const words = instructionsFor({ kind: "root" }, key(name), new Set())
      expect(words.indexOf("read the guide start with get_guide")).toBeGreaterThanOrEqual(0)
      expect(words.indexOf(firstTwo) + firstTwo.length).toBeLessThanOrEqual(512)
    }
  })

  it("say whom the connection acts as", () => {
    expect(instructionsFor({ kind: "root" }, key("build-bot"), new Set())).toContain(
      "This connection acts as the key build-bot in the org acme."
    )
    const person = new Caller({
      id: "person:user_2ada",
      name: "Ada Lovelace",
      kind: "person",
      org: "acme",
      permissions: [],
      playbooks: null
    })
    expect(instructionsFor({ kind: "root" }, person, new Set())).toContain(
      "This connection acts as Ada Lovelace (person:user_2ada) in the org acme."
    )
  })

  it("say what the connection acts on at each endpoint", () => {
    const caller = key("k")
    expect(instructionsFor({ kind: "root" }, caller, new Set(["list_playbooks"]))).toContain(
      "acme, whose playbooks you reach with list_playbooks."
    )
    expect(instructionsFor({ kind: "root" }, caller, new Set())).not.toContain("create_playbook")
    expect(instructionsFor({ kind: "org", org: "acme" }, caller, new Set())).toContain(
      "Definitions are made on each playbook's own endpoint, /orgs/acme/playbooks/<playbook>/mcp."
    )
    expect(instructionsFor({ kind: "playbook", org: "acme", playbook: "ops" }, caller, new Set())).toContain(
      "one playbook, ops, of the org acme"
    )
  })
})

describe("the endpoints' paths", () => {
  it("name the endpoint, its org and its playbook", () => {
    expect(endpointOf("/mcp")).toEqual({ kind: "root" })
    expect(endpointOf("/directory")).toEqual({ kind: "directory" })
    expect(endpointOf("/orgs/acme/mcp")).toEqual({ kind: "org", org: "acme" })
    expect(endpointOf("/orgs/acme/playbooks/ops/mcp")).toEqual({ kind: "playbook", org: "acme", playbook: "ops" })
    expect(endpointOf("/orgs/a%20b/mcp")).toEqual({ kind: "org", org: "a b" })
  })

  it("are nothing else", () => {
    for (const path of ["/", "/mcp/", "/orgs/acme", "/orgs//mcp", "/orgs/acme/playbooks/ops", "/orgs/%E0%A4%A/mcp"])
      expect(endpointOf(path)).toBeUndefined()
  })
})
