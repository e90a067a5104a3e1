/** A variable and the property names read from it: `$data.invoice.number` is `$data` then `invoice`, `number`. */
const pathExpression = /^\s*(\$[A-Za-z_][A-Za-z0-9_]*)((?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*)\s*$/

/** Names every object has from its prototype: a read of one is left to the sandbox, which knows what it gives. */
const inherited = new Set(Object.getOwnPropertyNames(Object.prototype))

/** A path's value, or `undefined` when the path is not one this reader answers exactly as the sandbox would. */
type PathValue = { readonly value: unknown } | undefined

/**
 * The value of an expression that only reads a variable and plain properties of it (`$data`, `$data.invoice.n`),
 * computed without the sandbox, exactly as the sandbox computes it (ADR 0273): JSON values read by own property, a
 * missing property of an object is `null` (§6.2), `length` of a list or a text is its length. Anything else — a
 * read of `null`, of a number, an inherited name, a list's other properties — is answered `undefined`, and the
 * sandbox evaluates it as it evaluates every other expression. The variables are JSON, so the value is too.
 */
export const readPath = (script: string, variables: Readonly<Record<string, unknown>>): PathValue => {
  const match = pathExpression.exec(script)
  if (match === null || !Object.hasOwn(variables, match[1]!)) return undefined
  let value: unknown = variables[match[1]!]
  const names = match[2]!
    .split(".")
    .slice(1)
    .map((name) => name.trim())
  for (const name of names) {
    if (typeof value === "string" || Array.isArray(value)) {
      if (name !== "length") return undefined
      value = value.length
    } else if (typeof value === "object" && value !== null) {
      if (inherited.has(name)) return undefined
      value = Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : null
    } else return undefined
  }
  return { value: value === undefined ? null : value }
}
