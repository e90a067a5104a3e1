import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { CreatePlaybookInputForTests, decodeInput } from "./decodeFixture.js"

describe("decodeInput", () => {
  it("never throws, and every refusal carries JSON pointers that exist in or under the input", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.object(), (value, object) => {
        for (const input of [value, object, { playbook: value, name: value }]) {
          const result = decodeInput(CreatePlaybookInputForTests, input)
          if (Either.isLeft(result)) {
            expect(result.left.reason).toBe("invalid_input")
            expect(result.left.errors?.length).toBeGreaterThan(0)
            for (const error of result.left.errors ?? [])
              expect(error.pointer === "" || error.pointer.startsWith("/")).toBe(true)
          } else {
            expect(typeof result.right.playbook).toBe("string")
          }
        }
      }),
      { numRuns: 1_500 }
    )
  })
})
