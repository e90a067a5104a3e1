import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Ids, uuidv7 } from "../../src/ports/Ids.js"

describe("uuidv7", () => {
  it("writes the time's low 48 bits, then the random bytes under the version and variant bits", () => {
    const random = Uint8Array.from([0xff, 0x01, 0xff, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0xab])
    expect(uuidv7(0x0123456789ab, random)).toBe("01234567-89ab-7f01-bf02-0304050607ab")
    expect(uuidv7(2 ** 48 + 1, random)).toBe("00000000-0001-7f01-bf02-0304050607ab")
    expect(uuidv7(-5, new Uint8Array(10))).toBe("00000000-0000-7000-8000-000000000000")
    expect(uuidv7(1.9, Uint8Array.from([0x12, 0x34]))).toBe("00000000-0001-7234-8000-000000000000")
  })

  it("gives every id of the live source its own random bytes, across refills of the pool", async () => {
    const ids = await Effect.runPromise(
      Effect.flatMap(Ids, (source) => Effect.all(Array.from({ length: 1_000 }, () => source.uuidv7(0)))).pipe(
        Effect.provide(Ids.live)
      )
    )
    expect(new Set(ids).size).toBe(1_000)
    for (const id of ids) expect(id).toMatch(/^00000000-0000-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
