import { declare } from "@runledger/core"
import { Effect, Schema } from "effect"

/** A playbook-scoped query served on /mcp and the playbook endpoint: it answers the playbook it ran in. */
export const whereAmI = declare({
  name: "where_am_i",
  title: "Say which playbook",
  description: "Answers the playbook the call acts in, and the words it was given.",
  tag: "test",
  kind: "query",
  scope: "playbook",
  route: { method: "GET", path: "/where" },
  input: Schema.Struct({ words: Schema.String }),
  output: Schema.Struct({ playbook: Schema.String, org: Schema.String, words: Schema.String }),
  permission: "playbook:read",
  served: { http: false, mcp: ["root", "playbook", "directory"] },
  summarize: (output) => `This runs in ${output.playbook}.`,
  handle: (input, context) =>
    Effect.succeed({ playbook: context.playbook?.id ?? "none", org: context.org, words: input.words })
})

/** An org query that takes as long as it is told: for heartbeats and for stopping while it runs. */
export const slowEcho = declare({
  name: "slow_echo",
  title: "Echo slowly",
  description: "Waits the milliseconds it is given, then answers them.",
  tag: "test",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/slow" },
  input: Schema.Struct({ ms: Schema.Number }),
  output: Schema.Struct({ waited: Schema.Number }),
  permission: "none",
  served: { http: false, mcp: ["root", "org", "playbook", "directory"] },
  summarize: (output) => `Waited ${output.waited} ms.`,
  handle: (input) => Effect.as(Effect.sleep(input.ms), { waited: input.ms })
})

/** An org command whose handler has a defect. */
export const broken = declare({
  name: "broken",
  title: "Break",
  description: "Dies inside its handler.",
  tag: "test",
  kind: "command",
  scope: "org",
  route: { method: "POST", path: "/broken" },
  input: Schema.Struct({}),
  output: Schema.Struct({}),
  permission: "none",
  served: { http: false, mcp: ["root"] },
  summarize: () => "Never.",
  handle: () => Effect.die(new Error("a bug in a handler"))
})
