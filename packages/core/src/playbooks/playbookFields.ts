import { Schema } from "effect"
import { PlaybookId } from "../domain/Ids.js"
import { utf8Bytes } from "../domain/utf8Bytes.js"

const codePoints = (value: string): number => [...value].length

/** A playbook's name: 1 to 100 characters, kept without the whitespace around it. */
export const PlaybookName = Schema.Trim.pipe(
  Schema.filter(
    (name) => (name.length > 0 && codePoints(name) <= 100) || "must be 1 to 100 characters, not all whitespace",
    {
      jsonSchema: { minLength: 1, maxLength: 100 }
    }
  ),
  Schema.annotations({
    jsonSchema: {
      type: "string",
      minLength: 1,
      maxLength: 100,
      description: "The playbook's name: 1 to 100 characters, kept without the whitespace around it.",
      examples: ["Finance"]
    }
  })
)

/** A playbook's description: at most 2,000 characters, kept without the whitespace around it. */
export const PlaybookDescription = Schema.Trim.pipe(
  Schema.filter((description) => codePoints(description) <= 2000 || "must be at most 2,000 characters", {
    jsonSchema: { maxLength: 2000 }
  }),
  Schema.annotations({
    jsonSchema: {
      type: "string",
      maxLength: 2000,
      description: "What the playbook is for: at most 2,000 characters, kept without the whitespace around it."
    }
  })
)

/** The most bytes a page's YAML source may hold. */
export const pageSourceBound = 65_536

/** A page as YAML text, at most 65,536 bytes in UTF-8. */
export const PageSource = Schema.String.pipe(
  Schema.filter((source) => utf8Bytes(source) <= pageSourceBound || "must be at most 65,536 bytes of YAML", {
    jsonSchema: { maxLength: pageSourceBound }
  }),
  Schema.annotations({ description: "The page as YAML text, at most 65,536 bytes; null removes it." })
)

/** The `playbook` path field of the org's playbook operations. */
export const PlaybookPath = Schema.Struct({ playbook: PlaybookId })
