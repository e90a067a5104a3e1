/**
 * Reads a `since` time: ISO 8601 with its offset, whose date exists in the calendar and whose hour runs from 00 to
 * 23. Returns its instant in milliseconds, or null when it is not one.
 */
export const parseSince = (since: string): number | null => {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/.exec(since)
  if (match === null) return null
  const [, year, month, day, hour, minute, second] = match.map(Number)
  if (hour > 23 || minute > 59 || (second ?? 0) > 59) return null
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  const instant = Date.parse(since)
  return Number.isNaN(instant) ? null : instant
}
