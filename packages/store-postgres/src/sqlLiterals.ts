/**
 * Values written into a statement's text, for statements sent without parameters: PostgreSQL's simple protocol
 * runs several statements sent as one text (`BEGIN; SELECT …`, `SELECT …; COMMIT`) in one round trip, and takes
 * no parameters. Strings are quoted as `pg`'s `escapeLiteral` does: quotes doubled, and backslashes doubled in an
 * `E''` literal, so a literal reads the same whatever `standard_conforming_strings` says.
 */
export const literal = {
  text: (text: string): string => {
    const quoted = text.replaceAll("'", "''")
    return text.includes("\\") ? `E'${quoted.replaceAll("\\", "\\\\")}'` : `'${quoted}'`
  },
  texts: (texts: ReadonlyArray<string>): string => `ARRAY[${texts.map(literal.text).join(", ")}]::text[]`,
  /** Safe integers (or NULL; the caller makes sure of it) as an array of `type`. */
  integers: (integers: ReadonlyArray<number | null>, type: "int" | "bigint"): string =>
    `ARRAY[${integers.map((integer) => (integer === null ? "NULL" : String(integer))).join(", ")}]::${type}[]`,
  json: (value: unknown): string => `${literal.text(JSON.stringify(value))}::jsonb`
}

/** A call of one of the store's functions in its schema, its arguments given as literals. */
export const callText = (schema: string, name: string, args: ReadonlyArray<string>): string =>
  `SELECT "${schema}".${name}(${args.join(", ")}) AS result`
