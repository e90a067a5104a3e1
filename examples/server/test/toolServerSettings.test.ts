import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { readServerSettings } from "../src/serverSettings.js"
import { readToolServers } from "../src/toolServerSettings.js"

describe("tool servers in the settings file", () => {
  it("reads tool_servers from RUNLEDGER_SETTINGS, keeping references for the tool servers to read", () => {
    const folder = mkdtempSync(join(tmpdir(), "runledger-tools-"))
    const file = join(folder, "settings.yaml")
    writeFileSync(
      file,
      `tool_servers:
  - name: billing
    type: openapi
    document: https://billing.example.com/openapi.json
    base_url: https://billing.example.com
    headers: { x-api-key: "\${BILLING_KEY}" }
    record_content: false
    marks: { searchInvoices: reads }
  - name: notes
    type: stdio
    command: node
    args: [notes.js]
    playbooks: [sales]
`
    )
    const settings = readServerSettings({ RUNLEDGER_SETTINGS: file })
    expect(settings.runtime.toolServers).toEqual([
      {
        name: "billing",
        type: "openapi",
        document: "https://billing.example.com/openapi.json",
        baseUrl: "https://billing.example.com",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a reference the tool servers read from the environment
        headers: { "x-api-key": "${BILLING_KEY}" },
        recordContent: false,
        marks: { searchInvoices: "reads" }
      },
      { name: "notes", type: "stdio", command: "node", args: ["notes.js"], playbooks: ["sales"] }
    ])
  })

  it("refuses an entry that lacks what its type needs", () => {
    expect(() => readToolServers([{ name: "x", type: "mcp" }])).toThrow("needs url")
    expect(() => readToolServers([{ name: "y", type: "openapi" }])).toThrow("needs document")
  })
})
