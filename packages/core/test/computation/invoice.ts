/** The invoice example of function-formats.md §4.3, as a whole document. */
export const invoiceDocument = `---
description: Net, VAT per rate and gross of an invoice, all in cents
language: typescript
input:
  schema:
    type: object
    required: [lines]
    properties:
      lines:
        type: array
        maxItems: 2000
        items:
          type: object
          required: [sku, quantity, unit_cents, vat_bp]
          properties:
            sku: { type: string }
            quantity: { type: integer, minimum: 1 }
            unit_cents: { type: integer, minimum: 0 }
            vat_bp: { type: integer, minimum: 0, maximum: 10000 }
output:
  schema:
    type: object
    required: [net_cents, vat, vat_cents, gross_cents]
    properties:
      net_cents: { type: integer }
      vat: { type: array, items: { type: object } }
      vat_cents: { type: integer }
      gross_cents: { type: integer }
---
export default function (input: Input): Output {
  const bases = new Map<number, number>();
  let net_cents = 0;
  for (const line of input.lines) {
    const amount = line.quantity * line.unit_cents;
    net_cents += amount;
    bases.set(line.vat_bp, (bases.get(line.vat_bp) ?? 0) + amount);
  }
  const vat = [...bases.entries()]
    .toSorted(([left], [right]) => left - right)
    .map(([rate_bp, base_cents]) => ({ rate_bp, base_cents, vat_cents: Math.round((base_cents * rate_bp) / 10000) }));
  const vat_cents = vat.reduce((sum, row) => sum + row.vat_cents, 0);
  return { net_cents, vat, vat_cents, gross_cents: net_cents + vat_cents };
}
`

/** A computation document around a module body, with optional extra front matter lines. */
export const computationDocument = (body: string, front = "") => `---\nlanguage: typescript\n${front}---\n${body}`
