/** A figure with `digits` decimals for a table, or — where there is none (not a finite number). */
export const fixed = (value: number, digits: number): string => (Number.isFinite(value) ? value.toFixed(digits) : "—")
