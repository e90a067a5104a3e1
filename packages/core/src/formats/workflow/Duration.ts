import { Either } from "effect"
import type { Expression } from "./Expression.js"

/** A duration as written (workflow-format.md §11): fixed at save, or an expression evaluated when the task runs. */
export type Duration = { readonly _tag: "Fixed"; readonly milliseconds: number } | Expression

/** The units of a duration written as a mapping, with their length in milliseconds. */
export const durationUnits: Readonly<Record<string, number>> = {
  days: 86_400_000,
  hours: 3_600_000,
  minutes: 60_000,
  seconds: 1_000,
  milliseconds: 1
}

const iso = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)(?:\.(\d+))?S)?)?$/
const yearsOrMonths = /^P[^T]*\d[YM]/

const isoMilliseconds = (text: string): Either.Either<number, string> => {
  if (yearsOrMonths.test(text)) {
    return Either.left("durations in years or months are refused, their length varies; write weeks or days")
  }
  const match = iso.exec(text)
  if (match === null || text === "P" || text.endsWith("T")) {
    return Either.left(`${JSON.stringify(text)} is not an ISO 8601 duration such as PT30M, P7D, P1W or P1DT12H`)
  }
  const [, weeks, days, hours, minutes, seconds, fraction] = match
  if (fraction !== undefined && fraction.length > 3) {
    return Either.left("seconds take at most three decimals (milliseconds)")
  }
  const number = (digits: string | undefined) => Number(digits ?? 0)
  return Either.right(
    number(weeks) * 7 * durationUnits.days! +
      number(days) * durationUnits.days! +
      number(hours) * durationUnits.hours! +
      number(minutes) * durationUnits.minutes! +
      number(seconds) * durationUnits.seconds! +
      Number((fraction ?? "").padEnd(3, "0"))
  )
}

const mappingMilliseconds = (value: Readonly<Record<string, unknown>>): Either.Either<number, string> => {
  const keys = Object.keys(value)
  const unknown = keys.find((key) => !(key in durationUnits))
  if (unknown !== undefined) {
    return Either.left(
      `unknown key ${JSON.stringify(unknown)}; a duration mapping takes ${Object.keys(durationUnits).join(", ")}`
    )
  }
  if (keys.length === 0)
    return Either.left(`a duration mapping names one or more of ${Object.keys(durationUnits).join(", ")}`)
  let total = 0
  for (const key of keys) {
    const amount = value[key]
    if (typeof amount !== "number" || !Number.isFinite(amount) || amount < 0) {
      return Either.left(`${key} must be a number of zero or more`)
    }
    total += amount * durationUnits[key]!
  }
  return Either.right(Math.round(total))
}

/**
 * The length in milliseconds of a duration value: an ISO 8601 string in weeks, days, hours, minutes and seconds
 * (fractional seconds to the millisecond, decision W14) or a mapping of units. Left: words saying why not.
 * Used at save for written durations and by the interpreter for computed ones.
 */
export const durationMilliseconds = (value: unknown): Either.Either<number, string> => {
  if (typeof value === "string") return isoMilliseconds(value)
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    return mappingMilliseconds(value as Record<string, unknown>)
  }
  return Either.left("a duration is an ISO 8601 text such as PT30M, or a mapping such as { minutes: 30 }")
}
