import { describe, expect, it } from "vitest"
import { workflowGuide } from "../../src/guides/workflow.js"
import { issuesOf } from "./workflowFixture.js"

describe("the workflow guide", () => {
  it("shows a document that reads without issues", () => {
    const example = /```yaml\n([\s\S]*?)```/.exec(workflowGuide)?.[1] ?? ""
    expect(example).toContain("document:")
    expect(issuesOf(example)).toEqual([])
  })

  it("shows triggers that read without issues", () => {
    const example = [...workflowGuide.matchAll(/```yaml\n([\s\S]*?)```/g)][1]?.[1] ?? ""
    const source = `document: { dsl: '1.0.3', namespace: a, name: b, version: '1.0.0' }\n${example}do:\n  - a:\n      wait: PT1S\n`
    expect(example).toContain("schedule:")
    expect(issuesOf(source)).toEqual([])
  })
})
