/** A token count a provider reported: a finite number, else null (not reported). */
export const tokenCount = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null
