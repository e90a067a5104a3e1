import { Caller, catalog } from "@runledger/core"
import { describe, expect, it } from "vitest"
import { inlineRefs } from "../src/inlineRefs.js"
import { inputSchemaOf } from "../src/inputSchemaOf.js"
import { makeToolCatalog } from "../src/ToolCatalog.js"
import { broken, slowEcho, whereAmI } from "./testOperations.js"

const caller = (permissions: Caller["permissions"]) =>
  new Caller({ id: "key:k", name: "k", kind: "key", org: "acme", permissions, playbooks: null })

describe("a tool's input schema", () => {
  it("inlines the definitions it refers to, without $schema or $defs", () => {
    const createPlaybook = catalog.find((operation) => operation.name === "create_playbook")!
    const schema = inputSchemaOf(createPlaybook, false)
    expect(schema.$schema).toBeUndefined()
    expect(schema.$defs).toBeUndefined()
    expect(schema).toMatchObject({
      type: "object",
      additionalProperties: false,
      properties: { playbook: { type: "string", pattern: "^[a-z][a-z0-9-]{2,47}$", maxLength: 48 } }
    })
  })

  it("adds a required playbook argument first where the path names no playbook", () => {
    const schema = inputSchemaOf(whereAmI, true)
    expect(schema.required).toEqual(["playbook", "words"])
    expect(Object.keys(schema.properties as object)).toEqual(["playbook", "words"])
    expect(schema.properties).toMatchObject({ playbook: { type: "string", pattern: "^[a-z][a-z0-9-]{2,47}$" } })
    expect(inputSchemaOf(whereAmI, false).required).toEqual(["words"])
  })

  it("is an object with no properties for an input with no fields", () => {
    expect(inputSchemaOf(broken, false)).toEqual({ type: "object", properties: {}, additionalProperties: false })
  })

  it("keeps a reference that recurses, with its definition", () => {
    const tree = {
      $schema: "http://json-schema.org/draft-07/schema#",
      $defs: {
        Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } },
        Name: { type: "string" }
      },
      type: "object",
      properties: { root: { $ref: "#/$defs/Node" }, name: { $ref: "#/$defs/Name", description: "A name." } }
    }
    expect(inlineRefs(tree)).toEqual({
      type: "object",
      properties: {
        root: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } },
        name: { type: "string", description: "A name." }
      },
      $defs: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/Node" } } } } }
    })
  })
})

describe("the tools an endpoint lists", () => {
  const playbookTools = ["create_playbook", "list_playbooks", "get_playbook", "get_guide"]
  const tools = makeToolCatalog([
    ...catalog.filter((operation) => playbookTools.includes(operation.name)),
    whereAmI,
    slowEcho,
    broken
  ])
  const names = (endpoint: Parameters<typeof tools.toolsFor>[0], permissions: Caller["permissions"]) =>
    tools
      .toolsFor(endpoint, caller(permissions))
      .map(({ tool }) => tool.name)
      .sort()

  it("are the operations served there whose permission the caller holds", () => {
    expect(names({ kind: "root" }, ["playbook:read"])).toEqual(
      ["broken", "get_guide", "list_playbooks", "slow_echo", "where_am_i"].sort()
    )
    expect(names({ kind: "root" }, [])).toEqual(["broken", "get_guide", "slow_echo"])
    expect(names({ kind: "org", org: "acme" }, ["org:read"])).toEqual(
      ["get_guide", "get_playbook", "list_playbooks", "slow_echo"].sort()
    )
    expect(names({ kind: "playbook", org: "acme", playbook: "ops" }, ["playbook:read"])).toEqual(
      ["get_guide", "slow_echo", "where_am_i"].sort()
    )
  })

  it("take the playbook as an argument only where the path names none", () => {
    const where = (endpoint: Parameters<typeof tools.toolsFor>[0]) =>
      tools.toolsFor(endpoint, caller(["playbook:read"])).find(({ tool }) => tool.name === "where_am_i")!
    expect(where({ kind: "root" }).takesPlaybook).toBe(true)
    expect(where({ kind: "directory" }).takesPlaybook).toBe(true)
    expect(where({ kind: "playbook", org: "acme", playbook: "ops" }).takesPlaybook).toBe(false)
  })

  it("carry the declaration's title, description and annotations", () => {
    const getGuide = catalog.find((operation) => operation.name === "get_guide")!
    const [guide] = tools.toolsFor({ kind: "root" }, caller([])).filter(({ tool }) => tool.name === "get_guide")
    expect(guide.tool).toMatchObject({
      title: getGuide.title,
      description: getGuide.description,
      annotations: { title: getGuide.title, readOnlyHint: true, destructiveHint: false, openWorldHint: false }
    })
  })
})
