/** The trivial computation function every row runs: the document saved on the runtimes. */
export const trivialDocument = `---
description: Twice a number
language: typescript
---
export default function (input: Json): Json {
  return { twice: (input as { n: number }).n * 2 };
}
`

/** The same program with its types stripped, as the bare QuickJS row evaluates it. */
export const trivialScript = "(function (input) { return { twice: input.n * 2 }; })"

/** The input of the `index`th run. */
export const inputOf = (index: number) => ({ n: index })
