/** The JSON Schema drafts a document may write. */
export type SchemaDraft = "2020-12" | "draft-07"

const drafts: ReadonlyArray<readonly [RegExp, SchemaDraft]> = [
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "draft-07"]
]

/**
 * The draft a schema is written in (function-formats.md §1.4): what `$schema` says, else draft-07 when it uses
 * `definitions` without `$defs`, else 2020-12. `undefined` when `$schema` names another draft.
 */
export const schemaDraft = (schema: unknown): SchemaDraft | undefined => {
  if (typeof schema !== "object" || schema === null) return "2020-12"
  const record = schema as Record<string, unknown>
  if (record.$schema !== undefined) {
    return drafts.find(([pattern]) => typeof record.$schema === "string" && pattern.test(record.$schema))?.[1]
  }
  return "definitions" in record && !("$defs" in record) ? "draft-07" : "2020-12"
}
