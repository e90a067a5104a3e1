import fc from "fast-check"

/** Text of any UTF-16 code units, lone surrogates, controls and noncharacters included. */
const anyText = fc.string({ unit: "binary", maxLength: 40 })

/** A value an attribute might be given: text, numbers, booleans, null or any JSON. */
const anyValue = fc.oneof(
  anyText,
  fc.constantFrom("/ledger/eu", "com.acme.closed", "2026-10-01T09:00:00Z", "2016-12-31T23:59:60Z", "application/json"),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 })
)

/** An attribute name: a CloudEvents attribute, a reserved one, an extension-like name, or any text. */
const anyName = fc.oneof(
  fc.constantFrom(
    "id",
    "source",
    "type",
    "time",
    "subject",
    "specversion",
    "datacontenttype",
    "dataschema",
    "depth",
    "caller",
    "triggerkind"
  ),
  fc.stringMatching(/^[a-z0-9]{1,22}$/),
  anyText
)

/**
 * A random attribute map of an event (for fuzzing `eventIssues` and publish_event): usually a valid source and type,
 * then any attributes with any values, and JSON data whose strings PostgreSQL's jsonb can hold (it refuses U+0000
 * and lone surrogates, which the seed lets data contain: reported, not fuzzed here).
 */
export const randomEvent = fc
  .tuple(
    fc.option(fc.constantFrom("/ledger/eu", "/runs/1", "https://acme.example/x"), { nil: undefined }),
    fc.option(fc.constantFrom("com.acme.closed", "run_started", " "), { nil: undefined }),
    fc.dictionary(anyName, anyValue, { maxKeys: 8 }),
    fc.option(fc.jsonValue({ maxDepth: 3 }), { nil: undefined })
  )
  .map(([source, type, rest, data]): Record<string, unknown> => {
    const { data: _data, ...attributes } = rest
    return {
      ...(source === undefined ? {} : { source }),
      ...(type === undefined ? {} : { type }),
      ...attributes,
      ...(data === undefined ? {} : { data })
    }
  })
