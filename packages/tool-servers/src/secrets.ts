/** The shortest referenced value that is scrubbed: shorter ones would scrub ordinary words. */
export const shortestScrubbed = 8

/** What an entry's `${VAR}` references resolve to: the text with each value in place, or the variables not set. */
export interface Resolved {
  readonly text: string
  readonly missing: ReadonlyArray<string>
  readonly values: ReadonlyArray<string>
}

const reference = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/** Puts the environment's values in place of a text's `${VAR}` references. */
export const resolveReferences = (text: string, env: Readonly<Record<string, string | undefined>>): Resolved => {
  const missing: Array<string> = []
  const values: Array<string> = []
  const resolved = text.replace(reference, (_whole, name: string) => {
    const value = env[name]
    if (value === undefined) {
      missing.push(name)
      return ""
    }
    values.push(value)
    return value
  })
  return { text: resolved, missing, values }
}

/** The text put where a secret was. */
export const scrubbedMark = "[scrubbed]"

/**
 * A scrubber of the given secret values (those of 8 characters or more), longest first so a value that holds
 * another is replaced whole; also replaces each value as JSON escapes it, so a scrubbed JSON text stays JSON.
 */
export const makeScrubber = (secrets: Iterable<string>): ((text: string) => string) => {
  const forms = new Set<string>()
  for (const secret of secrets)
    if (secret.length >= shortestScrubbed) {
      forms.add(secret)
      forms.add(JSON.stringify(secret).slice(1, -1))
    }
  const ordered = [...forms].sort((a, b) => b.length - a.length)
  if (ordered.length === 0) return (text) => text
  return (text) => ordered.reduce((scrubbed, secret) => scrubbed.replaceAll(secret, scrubbedMark), text)
}

/** A JSON value scrubbed as its JSON text is. */
export const scrubValue =
  (scrub: (text: string) => string) =>
  <A>(value: A): A =>
    value === undefined ? value : (JSON.parse(scrub(JSON.stringify(value))) as A)
