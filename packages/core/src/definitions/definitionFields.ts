import { Schema } from "effect"
import { utf8Bytes } from "../domain/utf8Bytes.js"
import { DefinitionType } from "./DefinitionType.js"

/** A definition's name: the playbook id rule, 3 to 48 lowercase letters, digits and hyphens, first a letter. */
export const DefinitionName = Schema.String.pipe(
  Schema.filter(
    (name) =>
      /^[a-z][a-z0-9-]{2,47}$/.test(name) ||
      "must be 3 to 48 lowercase letters, digits and hyphens, beginning with a letter",
    { jsonSchema: { pattern: "^[a-z][a-z0-9-]{2,47}$", minLength: 3, maxLength: 48 } }
  ),
  Schema.annotations({
    description: "The definition's name, unique within its type and playbook.",
    examples: ["total-spend"]
  })
)

/** The most UTF-8 bytes a source document may hold. */
export const sourceBound = 65_536

/** A definition's source document, at most 65,536 UTF-8 bytes. */
export const DefinitionSource = Schema.String.pipe(
  Schema.filter((source) => utf8Bytes(source) <= sourceBound || "must be at most 65,536 UTF-8 bytes", {
    jsonSchema: { maxLength: sourceBound }
  }),
  Schema.annotations({ description: "The definition's document, as its type's guide describes it." })
)

/** A definition's overview: Markdown of 1 character to 16,384 UTF-8 bytes. */
export const DefinitionOverview = Schema.String.pipe(
  Schema.filter(
    (overview) => (overview.length > 0 && utf8Bytes(overview) <= 16_384) || "must be 1 character to 16,384 bytes",
    {
      jsonSchema: { minLength: 1, maxLength: 16_384 }
    }
  ),
  Schema.annotations({
    description:
      "Markdown for the person who runs the business: why the definition exists, what it does and how it fits, in one to three short paragraphs."
  })
)

/** A diagram as given: Mermaid source of a flowchart or state diagram, or `none`; checked by `checkDiagram`. */
export const DefinitionDiagram = Schema.String.annotations({
  description:
    "How a function works as a picture: Mermaid source of a flowchart or a state diagram (first line flowchart, graph or stateDiagram, optionally with a direction such as TD) in at most 8,192 bytes, or the word none. Required for functions; a workflow takes none."
})

/** The `type` and `name` of a definition's routes. */
export const DefinitionPath = Schema.Struct({ type: DefinitionType, name: DefinitionName })

/** The `type` of the routes of a type's definitions. */
export const TypePath = Schema.Struct({ type: DefinitionType })

/** Whether a text is UTF-8 bytes within a bound. */
export const fitsBytes = (text: string, bound: number): boolean => utf8Bytes(text) <= bound
