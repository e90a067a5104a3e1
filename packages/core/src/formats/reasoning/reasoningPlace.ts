import type { Place } from "../document/Place.js"

/** The keys of a reasoning function's front matter (function-formats.md §2.1). */
export const reasoningPlace: Place = {
  keys: {
    description: "value",
    model: "value",
    config: {
      keys: {
        max_output_tokens: "value",
        temperature: "value",
        top_p: "value",
        seed: "value",
        stop_sequences: "value",
        reasoning: "value"
      }
    },
    input: { keys: { schema: "value", default: "value" } },
    output: { keys: { format: "value", schema: "value", shape: "value" } },
    provider_options: "value",
    tools: "value",
    page: "value"
  },
  required: ["model"],
  refused: { language: "a reasoning function's body is its prompt, not a program" }
}
