/** An ISO 8601 duration of weeks, days, hours, minutes and (fractional) seconds, in milliseconds; undefined otherwise. */
export const durationMillis = (text: string): number | undefined => {
  const match = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d{1,3})?)S)?)?$/.exec(text)
  if (match === null || text === "P" || text.endsWith("T")) return undefined
  const [, weeks, days, hours, minutes, seconds] = match
  const number = (part: string | undefined) => (part === undefined ? 0 : Number(part))
  return Math.round(
    (((number(weeks) * 7 + number(days)) * 24 + number(hours)) * 60 + number(minutes)) * 60_000 + number(seconds) * 1000
  )
}
