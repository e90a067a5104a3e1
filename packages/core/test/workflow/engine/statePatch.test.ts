import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { RunStateData } from "../../../src/workflow/engine/Interpreter.js"
import {
  applyStatePatch,
  diffState,
  rememberStateChange,
  stateAfterPatch
} from "../../../src/workflow/engine/statePatch.js"

const roundTrip = (before: RunStateData | undefined, after: RunStateData) =>
  JSON.stringify(applyStatePatch(before, JSON.parse(JSON.stringify(diffState(before, after)))))

describe("state patches (RFC 6902)", () => {
  it("diffs members and items in place, escaping keys", () => {
    const before = { a: 1, "x/y": { "m~n": [1, 2, 3] }, gone: true }
    const after = { a: 2, "x/y": { "m~n": [1, 5] }, added: null }
    expect(diffState(before, after)).toEqual([
      { op: "replace", path: "/a", value: 2 },
      { op: "replace", path: "/x~1y/m~0n/1", value: 5 },
      { op: "remove", path: "/x~1y/m~0n/2" },
      { op: "remove", path: "/gone" },
      { op: "add", path: "/added", value: null }
    ])
    expect(roundTrip(before, after)).toBe(JSON.stringify(after))
  })

  it("replaces an object whose key order changed, so the order round-trips", () => {
    const before = { data: { x: 1, y: 2 } }
    const after = { data: { y: 2, x: 1 } }
    expect(diffState(before, after)).toEqual([{ op: "replace", path: "/data", value: { y: 2, x: 1 } }])
    expect(roundTrip(before, after)).toBe(JSON.stringify(after))
  })

  it("keeps a __proto__ member as data and leaves the given state unchanged", () => {
    const before = { data: {} }
    const after = JSON.parse('{ "data": { "__proto__": { "polluted": true } } }')
    const rebuilt = applyStatePatch(before, diffState(before, after))
    expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(after))
    expect(before).toEqual({ data: {} })
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it("rebuilds any JSON value from any other exactly", () => {
    const value = fc.jsonValue({ maxDepth: 4 }).map((json) => ({ value: json }) as RunStateData)
    fc.assert(
      fc.property(fc.option(value, { nil: undefined }), value, (before, after) => {
        expect(roundTrip(before, after)).toBe(JSON.stringify(after))
      })
    )
  })

  it("answers the interpreter's own state for its own patch from the same state, and applies any other", () => {
    const before = { n: 1, kept: { deep: [1] } } as RunStateData
    const after = { n: 2, kept: (before as { kept: unknown }).kept } as RunStateData
    const patch = diffState(before, after)
    rememberStateChange(patch, before, after)
    expect(stateAfterPatch(before, patch)).toBe(after)
    // The same patch from an equal state that is another object (read back from a store) is applied to it.
    const readBack = JSON.parse(JSON.stringify(before)) as RunStateData
    const applied = stateAfterPatch(readBack, patch)
    expect(applied).not.toBe(after)
    expect(applied).toEqual(after)
    // A copy of the patch (a fact read back) is applied too.
    const copied = stateAfterPatch(before, JSON.parse(JSON.stringify(patch)))
    expect(copied).not.toBe(after)
    expect(copied).toEqual(after)
  })
})
