import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { seededDraw } from "../../../src/workflow/engine/seededDraw.js"
import { uuidV5 } from "../../../src/workflow/engine/uuidV5.js"

describe("ids and draws derived from a run's keys", () => {
  it("uuidV5 gives RFC 9562's example for www.example.com in the DNS namespace", () => {
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe(
      "2ed6657d-e927-568b-95e1-2665a8aea6a2"
    )
  })

  it("derives distinct version 5 ids for distinct keys", () => {
    const first = uuidV5("run /do/0/a 1")
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(uuidV5("run /do/0/a 2")).not.toBe(first)
    expect(uuidV5("run /do/0/a 1")).toBe(first)
  })

  it("draws in [0, 1), the same for the same seed and counter", () => {
    fc.assert(
      fc.property(fc.integer(), fc.nat(10_000), (seed, draw) => {
        const value = seededDraw(seed, draw)
        expect(value).toBeGreaterThanOrEqual(0)
        expect(value).toBeLessThan(1)
        expect(seededDraw(seed, draw)).toBe(value)
      })
    )
    const draws = Array.from({ length: 1_000 }, (_, draw) => seededDraw(42, draw))
    expect(new Set(draws).size).toBeGreaterThan(990)
  })
})
