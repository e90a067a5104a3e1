import { invalidAt, type Rejection } from "../domain/Rejection.js"
import { utf8Bytes } from "../domain/utf8Bytes.js"

/** The most bytes a run's input may hold as encoded JSON. */
export const inputBytesBound = 256 * 1024

/** The deepest a run's input may nest. */
export const inputDepthBound = 512

/** How deep a JSON value nests: a scalar is 0, `[]` and `{}` are 1. Stops counting past `stop`. */
export const depthOf = (value: unknown, stop = Number.POSITIVE_INFINITY): number => {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!
    if (item === null || typeof item !== "object") continue
    const level = depth + 1
    if (level > deepest) deepest = level
    if (deepest > stop) return deepest
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, level])
  }
  return deepest
}

/** The run's input within the seed's bounds (HTTP "Runs and results"), or `invalid_input` at `/input`. */
export const checkInputBounds = (input: unknown): Rejection | undefined => {
  if (utf8Bytes(JSON.stringify(input) ?? "") > inputBytesBound)
    return invalidAt("/input", "input: holds more than 256 KiB as JSON; send a smaller input.")
  if (depthOf(input, inputDepthBound) > inputDepthBound)
    return invalidAt("/input", "input: nests more than 512 levels deep.")
  return undefined
}
