/** Words for a value found where another was expected: `the string "warm"`, `the number 5`, `a list`… */
export const describeValue = (value: unknown): string => {
  if (value === null || value === undefined) return "nothing (null)"
  if (typeof value === "string")
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
  if (typeof value === "number" || typeof value === "boolean") return `the ${typeof value} ${String(value)}`
  if (Array.isArray(value)) return "a list"
  return "a mapping"
}
