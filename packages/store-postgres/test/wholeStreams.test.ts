import { describe, expect, it } from "vitest"
import { makeStreamVersions } from "../src/streamVersions.js"

const fact = {
  id: "f",
  type: "noted",
  data: {},
  metadata: { correlation_id: null, causation_id: null, at: "", by: "" }
}
const append = (stream: string, expected: number | "any") => [{ stream, expected, facts: [fact] }] as const

describe("the streams an instance wrote all of (ADR 0415)", () => {
  it("holds a stream it made, version after version, while every append is its own", () => {
    const versions = makeStreamVersions()
    versions.appended(append("s", 0), new Map([["s", 1]]))
    expect(versions.wroteAll("s", 1)).toBe(true)
    versions.appended(append("s", 1), new Map([["s", 3]]))
    expect(versions.wroteAll("s", 3)).toBe(true)
    expect(versions.wroteAll("s", 1)).toBe(false)
  })

  it("lets go of a stream another instance appended to, one it did not make, and one appended at any version", () => {
    const versions = makeStreamVersions()
    versions.appended(append("s", 0), new Map([["s", 1]]))
    versions.appended(append("s", 2), new Map([["s", 3]]))
    expect(versions.wroteAll("s", 3)).toBe(false)
    versions.appended(append("t", 4), new Map([["t", 5]]))
    expect(versions.wroteAll("t", 5)).toBe(false)
    versions.appended(append("u", 0), new Map([["u", 1]]))
    versions.appended(append("u", "any"), new Map([["u", 2]]))
    expect(versions.wroteAll("u", 2)).toBe(false)
  })

  it("lets go of a stream a refusal saw move on, and of one disowned", () => {
    const versions = makeStreamVersions()
    versions.appended(append("s", 0), new Map([["s", 1]]))
    versions.saw([["s", 2]])
    expect(versions.wroteAll("s", 1)).toBe(false)
    expect(versions.wroteAll("s", 2)).toBe(false)
    versions.appended(append("t", 0), new Map([["t", 1]]))
    versions.disown(["t"])
    expect(versions.wroteAll("t", 1)).toBe(false)
  })

  it("remembers up to an eighth more than 1,024 streams, then forgets the least recently appended down to 1,024", () => {
    const versions = makeStreamVersions()
    const appendNew = (index: number) => versions.appended(append(`s${index}`, 0), new Map([[`s${index}`, 1]]))
    for (let index = 0; index < 1_152; index++) appendNew(index)
    expect(versions.wroteAll("s0", 1)).toBe(true)
    versions.appended(append("s0", 1), new Map([["s0", 2]]))
    appendNew(1_152)
    expect(versions.wroteAll("s0", 2)).toBe(true)
    expect(versions.wroteAll("s1", 1)).toBe(false)
    expect(versions.wroteAll("s129", 1)).toBe(false)
    expect(versions.wroteAll("s130", 1)).toBe(true)
    expect(versions.wroteAll("s1152", 1)).toBe(true)
  })
})
