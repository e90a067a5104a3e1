import { Context, Effect, Layer } from "effect"

/** Makes ids: UUIDv7 (time-ordered) for facts, runs and incidents. Tests provide a deterministic one. */
export class Ids extends Context.Tag("@runledger/core/Ids")<
  Ids,
  {
    /** A new UUIDv7 whose time part is `at` (milliseconds since the epoch). */
    readonly uuidv7: (at: number) => Effect.Effect<string>
  }
>() {
  /** UUIDv7 from the platform's cryptographic random source. */
  static readonly live = Layer.succeed(Ids, {
    uuidv7: (at) => Effect.sync(() => uuidv7(at, crypto.getRandomValues(new Uint8Array(10))))
  })
}

/** Formats a UUIDv7 from a time in milliseconds and 10 random bytes (RFC 9562 §5.7). */
export const uuidv7 = (at: number, random: Uint8Array): string => {
  const bytes = new Uint8Array(16)
  let time = Math.max(0, Math.floor(at))
  for (let index = 5; index >= 0; index--) {
    bytes[index] = time % 256
    time = Math.floor(time / 256)
  }
  bytes.set(random.subarray(0, 10), 6)
  bytes[6] = 0x70 | (bytes[6] & 0x0f)
  bytes[8] = 0x80 | (bytes[8] & 0x3f)
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
