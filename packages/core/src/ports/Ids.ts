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
  static readonly live = Layer.sync(Ids, () => {
    const random = randomSource()
    return { uuidv7: (at) => Effect.sync(() => uuidv7(at, random(10))) }
  })
}

/** How many random bytes are drawn from the platform at once (`getRandomValues` gives at most 65,536). */
const poolBytes = 4096

/**
 * Random bytes from the platform's cryptographic source, drawn a pool at a time and each given out once: one call
 * of the source serves 409 ids rather than one (ADR 0238).
 */
const randomSource = () => {
  let pool = new Uint8Array(0)
  let next = 0
  return (count: number): Uint8Array => {
    if (next + count > pool.length) {
      pool = crypto.getRandomValues(new Uint8Array(poolBytes))
      next = 0
    }
    next += count
    return pool.subarray(next - count, next)
  }
}

/** Two lowercase hex digits of each byte value. */
const hexOf = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"))

/**
 * Formats a UUIDv7 from a time in milliseconds and 10 random bytes (RFC 9562 §5.7): the time's low 48 bits, then
 * the version and variant bits over the random ones (a missing byte is 0).
 */
export const uuidv7 = (at: number, random: Uint8Array): string => {
  const whole = Math.max(0, Math.floor(at))
  const time = Number.isFinite(whole) ? whole % 2 ** 48 : 0
  // Two halves of 24 bits each, so every byte is taken with integer operations.
  const high = Math.floor(time / 0x1000000)
  const low = time % 0x1000000
  const byte = (index: number) => hexOf[random[index] ?? 0]
  return (
    hexOf[high >> 16] +
    hexOf[(high >> 8) & 0xff] +
    hexOf[high & 0xff] +
    hexOf[low >> 16] +
    "-" +
    hexOf[(low >> 8) & 0xff] +
    hexOf[low & 0xff] +
    "-" +
    hexOf[0x70 | ((random[0] ?? 0) & 0x0f)] +
    byte(1) +
    "-" +
    hexOf[0x80 | ((random[2] ?? 0) & 0x3f)] +
    byte(3) +
    "-" +
    byte(4) +
    byte(5) +
    byte(6) +
    byte(7) +
    byte(8) +
    byte(9)
  )
}
