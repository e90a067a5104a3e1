import { Schema } from "effect"

/** An org's id: the org of an API key, or `local` in local mode. */
export const OrgId = Schema.String.pipe(
  Schema.pattern(/^[a-z0-9][a-z0-9_-]{0,62}$/),
  Schema.annotations({ description: "The org's id." })
)

const playbookIdRule = "must be 3 to 48 lowercase letters, digits and hyphens, beginning with a letter"

/** A playbook's id: 3 to 48 lowercase letters, digits and hyphens, beginning with a letter. */
export const PlaybookId = Schema.String.pipe(
  Schema.filter((value) => /^[a-z][a-z0-9-]{2,47}$/.test(value) || playbookIdRule, {
    jsonSchema: { pattern: "^[a-z][a-z0-9-]{2,47}$", minLength: 3, maxLength: 48 }
  }),
  Schema.annotations({
    identifier: "PlaybookId",
    description: "The playbook's id: 3 to 48 lowercase letters, digits and hyphens, beginning with a letter.",
    examples: ["finance"]
  })
)

/** A UUID, any version, in lowercase or uppercase hex. */
export const Uuid = Schema.String.pipe(
  Schema.filter(
    (value) =>
      /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(value) || "must be a UUID",
    { jsonSchema: { format: "uuid" } }
  )
)

/** An ISO 8601 UTC timestamp as the wire carries it. */
export const Timestamp = Schema.String.pipe(Schema.annotations({ description: "ISO 8601 UTC", format: "date-time" }))
