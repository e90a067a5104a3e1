/**
 * Keeps a map used as a least-recently-used memory (entries re-set when used, so the oldest come first) within
 * `capacity`: once it holds an eighth more, the oldest entries are deleted down to `capacity`, in one walk.
 * Deleting one entry per insertion would walk past every entry deleted since the map last rehashed, to find the
 * oldest live one: some microseconds an insertion at a few thousand entries.
 */
export const forgetOldest = <K, V>(map: Map<K, V>, capacity: number): void => {
  if (map.size <= capacity + Math.ceil(capacity / 8)) return
  let over = map.size - capacity
  for (const oldest of map.keys()) {
    if (over-- === 0) return
    map.delete(oldest)
  }
}
