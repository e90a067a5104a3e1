/** The deepest nesting a value given to or returned by a function may have (function-formats.md §1.4, §1.8). */
export const maxValueDepth = 512

/** Whether a JSON value nests lists and objects deeper than `limit` levels; walks without recursion. */
export const deeperThan = (value: unknown, limit: number): boolean => {
  const pending: Array<readonly [unknown, number]> = [[value, 1]]
  while (pending.length > 0) {
    const [next, depth] = pending.pop()!
    if (typeof next !== "object" || next === null) continue
    if (depth > limit) return true
    for (const child of Array.isArray(next) ? next : Object.values(next)) pending.push([child, depth + 1])
  }
  return false
}
