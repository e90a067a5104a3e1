/**
 * The filters RunLedger adds to liquidjs's standard set (decision F12), the same in every place a template is
 * written. Each throws when it refuses a value, which stops the render.
 */

/** A number, or a text holding a decimal number, as US dollars: `1234.5` → `$1,234.50`, `1234` → `$1,234`. */
export const money = (value: unknown): string => {
  const amount =
    typeof value === "number" ? value : typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : NaN
  if (!Number.isFinite(amount))
    throw new Error(`money takes a number or a text holding one, not ${JSON.stringify(value)}`)
  const whole = Number.isInteger(amount)
  const [units, cents] = Math.abs(amount)
    .toFixed(whole ? 0 : 2)
    .split(".")
  const grouped = units!.replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return `${amount < 0 ? "-" : ""}$${grouped}${cents === undefined ? "" : `.${cents}`}`
}

/** Cuts a text to `length` code points (default 400), ending it with `…` when it cut. */
export const clip = (value: unknown, length: unknown = 400): string => {
  const text = String(value ?? "")
  const limit = typeof length === "number" && Number.isInteger(length) && length >= 0 ? length : 400
  const points = [...text]
  return points.length <= limit ? text : `${points.slice(0, limit).join("")}…`
}

/** How many whitespace-separated words a text holds. */
export const words = (value: unknown): number => {
  const text = String(value ?? "").trim()
  return text === "" ? 0 : text.split(/\s+/).length
}
