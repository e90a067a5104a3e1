/** The tag of the dollar quotes `literal.text` writes: a text holding it is escaped instead. */
const quoteTag = "$runledger$"

/**
 * Values written into a statement's text, for statements sent without parameters: PostgreSQL's simple protocol
 * runs several statements sent as one text (`BEGIN; SELECT …`, `SELECT …; COMMIT`) in one round trip, and takes
 * no parameters. A string goes in dollar quotes (ADR 0417), which PostgreSQL reads as written whatever
 * `standard_conforming_strings` says, so an append's JSON (kilobytes of it) is looked through once, not escaped; a
 * string that holds the quotes' tag (or ends with a part of it) is quoted as `pg`'s `escapeLiteral` does: quotes doubled, and backslashes
 * doubled in an `E''` literal.
 */
export const literal = {
  text: (text: string): string => {
    // The closing tag must be the first one after the opening: not in the text, nor made by its end and the tag.
    if (`${text}${quoteTag}`.indexOf(quoteTag) === text.length) return `${quoteTag}${text}${quoteTag}`
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
