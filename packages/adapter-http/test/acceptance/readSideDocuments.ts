/** A computation that doubles a number; an input without n is rejected, which breaks the definition. */
export const double = `---
description: Doubles a number
language: typescript
input:
  schema:
    type: object
    required: [n]
    properties:
      n: { type: number }
---
export default function (input: Input): Json {
  return { n: input.n * 2 };
}
`

/** A request held for an agent, to the party its input names (`to`), about an order (`order`). */
export const askTo = `---
description: Ask about a refund
to: '{{ input.to }}'
expires: P1D
deliver: agent
output:
  schema:
    type: object
    required: [decision]
    properties:
      decision: { type: string, enum: [grant, deny] }
---
Refund order {{ input.order }}?
`
