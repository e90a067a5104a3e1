/** The guide `computation-function`: how to write a computation function. Written for an agent, in our own words. */
export const computationFunctionGuide = `# Writing a computation function

A computation function is a small TypeScript program that turns a JSON input into a JSON output: sums, shares,
rounding, sorting, reshaping. Use one wherever arithmetic must be exact and repeatable; a model should never do it.

## The document

A Markdown document: YAML front matter between two \`---\` lines (the first on line 1), then the program.

\`\`\`markdown
---
description: Totals of an order, in cents
language: typescript
input:
  schema:
    type: object
    required: [lines]
    properties:
      lines:
        type: array
        items:
          type: object
          required: [quantity, unit_cents]
          properties:
            quantity: { type: integer, minimum: 1 }
            unit_cents: { type: integer, minimum: 0 }
output:
  schema:
    type: object
    required: [total_cents]
    properties:
      total_cents: { type: integer }
---
export default function (input: Input): Output {
  let total_cents = 0;
  for (const line of input.lines) total_cents += line.quantity * line.unit_cents;
  return { total_cents };
}
\`\`\`

| Key | Rule |
| --- | --- |
| \`language\` | Required. Only \`typescript\`. |
| \`description\` | Optional, 1 to 1,000 characters. |
| \`input.schema\` | Optional JSON Schema (2020-12, or draft-07). The input must fit it, else the run is \`invalid_input\`. |
| \`output.schema\` | Optional JSON Schema. An output that does not fit ends the run \`conflict\`, kind \`unworkable\`. |
| \`output.shape\` | Optional instead of \`output.schema\`: \`table\`, \`series\` or \`asset\`. Never both. |
| \`page\` | Optional, kept as written. |

Any other key is refused, with the keys its place takes. \`model\`, \`config\`, \`tools\`, \`output.format\` and
\`input.default\` mean nothing here. YAML is plain: no anchors, aliases or tags, no repeated keys; \`yes\` and
\`2026-10-01\` stay text. Schemas may not use \`pattern\`, \`patternProperties\`, \`if\`/\`then\`/\`else\`,
\`contains\`, dependencies or \`unevaluated*\`; \`$ref\` only points into the schema's own \`$defs\`.

## The program

- One module. Its **default export** is \`(input: Input) => Output\`. \`Input\` and \`Output\` are made from the
  schemas (\`Json\`, any JSON value, when a schema is absent); definitions become \`Input_<name>\`.
- At the top level: only types and exported functions. No \`let\`, \`const\`, classes or unexported functions there, so
  two runs share nothing.
- No \`import\`, \`require\`, \`import()\`, \`eval\`, \`new Function\`, \`declare\`; no \`async\`, \`await\` or
  exported generators; no \`enum\`, \`namespace\`, parameter properties or decorators.
- At most 500 assignments to variables in one function (\`+=\` and \`++\` count): keep values in a structure or a loop.
- The save type-checks the program (strict, \`exactOptionalPropertyTypes\`). Each finding is an issue at its line.

## What the program has

The language's own library up to ES2023 and a little after: \`toSorted\`, \`Object.groupBy\`, \`Map.groupBy\`,
\`Set.prototype.union\`, iterator helpers, \`BigInt\` (not in the output). Absent: \`Math.random\`, \`eval\`,
\`Function\`, \`Promise\`, \`console\`, \`fetch\`, timers, \`Intl\`, \`WeakRef\`, modules.

\`Date.now()\` and \`new Date()\` give the run's start, the same throughout. Write \`new Date(Date.UTC(y, m, d))\`,
\`new Date("2026-03-04")\` or \`new Date("2026-03-04T10:00:00Z")\`, and read with \`getUTC*\` and \`toISOString()\`.
Local-time forms raise \`TypeError\`: \`new Date(2026, 0, 1)\`, a date-time without \`Z\` or an offset, \`Date()\`,
\`String(date)\`, \`\${date}\`, \`getHours()\`, \`toLocaleString()\`.

Numbers are doubles: integers are exact up to 2^53, so count money in cents. Strings sort by UTF-16 code unit.

## The output

Return JSON: objects, arrays, strings, finite numbers, booleans, null. A \`Date\`, \`Map\`, \`Set\`, class instance,
function, \`BigInt\`, \`NaN\`, \`Infinity\`, \`undefined\`, a hole in an array, a cycle or nesting past 512 levels
ends the run \`unworkable\`, naming the first place (\`$.vat[0].at holds a Date\`). Turn dates into
\`toISOString()\` strings and maps into objects or arrays.

## Bounds and endings

| Bound | Value | On reaching it |
| --- | --- | --- |
| Document | 65,536 bytes | refused at save |
| Input | 256 KiB as JSON, 512 levels | \`invalid_input\` |
| Work | 20,000 checkpoints (the engine counts one every 10,000 steps) | \`conflict\`, \`unworkable\` |
| Memory | 256 MiB | \`conflict\`, \`unworkable\` |
| Stack | 1 MiB, about 5,400 nested calls | \`unworkable\` if the error is not caught |
| Output | 1,048,320 bytes as JSON | \`conflict\`, \`unworkable\` |
| Time | 10 s from the run's start | \`unavailable\` |

An uncaught error ends the run with "the program raised on line N: …" (the document's line). A run records
\`work\`, \`duration_ms\`, \`input_bytes\` and \`output_bytes\`. The same input gives the same result again, so an
\`unworkable\` run is fixed by changing the program or the input, not by retrying.
`
