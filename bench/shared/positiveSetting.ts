/** A positive number read from an environment variable, or the fallback when it is unset or empty. */
export const positiveSetting = (name: string, raw: string | undefined, fallback: number): number => {
  if (raw === undefined || raw === "") return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got "${raw}"`)
  return value
}
