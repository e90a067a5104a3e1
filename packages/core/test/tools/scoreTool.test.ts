import { describe, expect, it } from "vitest"
import { scoreTool, summaryOf, wordsOf } from "../../src/tools/scoreTool.js"

const tool = (name: string, description: string, args: ReadonlyArray<string> = []) => ({
  name,
  description,
  inputSchema: { type: "object", properties: Object.fromEntries(args.map((arg) => [arg, { type: "string" }])) },
  mark: "reads" as const,
  markedBy: "server" as const
})

describe("search scores", () => {
  it("splits words at _, ., -, spaces and case changes, in lower case", () => {
    expect(wordsOf("getHTTPInvoice_lines.v2-beta")).toEqual(["get", "http", "invoice", "lines", "v2", "beta"])
  })

  it("scores 3 for the name, 2 for an argument's name, 1 for the description, for each part of each word", () => {
    expect(scoreTool(tool("get_invoice", "Reads an invoice.", ["invoice_id"]), ["Invoice"])).toBe(6)
    expect(scoreTool(tool("list_customers", "Lists customers.", ["customer_id"]), ["invoice"])).toBe(0)
    expect(scoreTool(tool("list_customers", "Lists customers.", ["customer_id"]), ["customer_id"])).toBe(4)
  })

  it("summarises a description by its first sentence, cut at 300 characters", () => {
    expect(summaryOf("Reads one invoice. Answers its lines.")).toBe("Reads one invoice.")
    expect([...summaryOf("x".repeat(400))].length).toBe(300)
  })
})
