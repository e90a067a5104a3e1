import { makeScrubber, resolveReferences } from "@runledger/tool-servers"
import { describe, expect, it } from "vitest"

describe("references and scrubbing", () => {
  it("puts the environment's values in place of references, and names the variables not set", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the reference syntax under test
    const resolved = resolveReferences("Bearer ${KEY} for ${TEAM} and ${MISSING}", { KEY: "abcdefgh12", TEAM: "ops" })
    expect(resolved).toEqual({
      text: "Bearer abcdefgh12 for ops and ",
      missing: ["MISSING"],
      values: ["abcdefgh12", "ops"]
    })
  })

  it("scrubs values of 8 characters or more, longest first and as JSON escapes them, and leaves shorter ones", () => {
    const scrub = makeScrubber(["ops", "secret-123", 'quo"te-value', "secret-123-longer"])
    expect(scrub("ops uses secret-123-longer and secret-123")).toBe("ops uses [scrubbed] and [scrubbed]")
    expect(scrub(JSON.stringify({ key: 'quo"te-value' }))).toBe('{"key":"[scrubbed]"}')
  })
})
