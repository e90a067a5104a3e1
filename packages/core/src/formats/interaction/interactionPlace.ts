import type { Place } from "../document/Place.js"

/** The keys of `call`: a tool that acts, called once (function-formats.md §3.1). */
const callPlace: Place = {
  keys: { server: "value", tool: "value", with: "value", read: "value" },
  required: ["server", "tool"]
}

/** The keys of `replies`: how replies are read back from the conversation a tool delivered into (§3.5). */
const repliesPlace: Place = {
  keys: {
    conversation: "value",
    tool: "value",
    with: "value",
    read: {
      keys: {
        list: "value",
        order: "value",
        each: { keys: { id: "value", sender: "value", text: "value", to: "value" }, required: ["id", "sender", "text"] }
      },
      required: ["list", "order", "each"]
    },
    wait: "value",
    tell: { keys: { tool: "value", with: "value" } }
  },
  required: ["tool", "read"]
}

/**
 * The keys of an interaction function's front matter (function-formats.md §3.2). `deliver` and `reply` take
 * either a word or a mapping, so they are checked by the reader; `to`, `expires` and `deliver` are required
 * unless the document names `call`, which the reader also checks.
 */
export const interactionPlace: Place = {
  keys: {
    description: "value",
    to: "value",
    from: "value",
    expires: "value",
    deliver: "value",
    replies: repliesPlace,
    reply: "value",
    call: callPlace,
    input: { keys: { schema: "value" } },
    output: { keys: { schema: "value" } },
    page: "value"
  },
  required: ["to", "expires", "deliver"],
  refused: {
    model: "an interaction asks a party and runs no model",
    config: "an interaction has no model settings",
    tools: "an interaction reaches its party through deliver, or acts through call",
    language: "an interaction's body is the message its party reads, not a program"
  }
}
