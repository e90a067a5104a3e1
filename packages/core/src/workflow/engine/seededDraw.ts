/**
 * The `draw`-th random number in [0, 1) of a run seeded with `seed` (ADR 0253): SplitMix32 over the seed and the
 * draw counter, so a replay or another instance draws the same retry jitter.
 */
export const seededDraw = (seed: number, draw: number): number => {
  let z = (Math.imul(seed | 0, 0x9e3779b9) + Math.imul(draw + 1, 0x6a09e667)) | 0
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
  z ^= z >>> 16
  return (z >>> 0) / 4_294_967_296
}
