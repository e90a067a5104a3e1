import { declare, reject } from "@runledger/core"
import { Effect, Schema } from "effect"

const common = {
  tag: "test",
  served: { http: true, mcp: [] },
  summarize: () => "done"
} as const

/** A playbook-scoped command, to reach the dispatcher's refusal of commands in a retired playbook over HTTP. */
export const touchPlaybook = declare({
  ...common,
  name: "touch_playbook",
  title: "Touch a playbook",
  description: "Test-only: a command inside a playbook that changes nothing.",
  kind: "command",
  scope: "playbook",
  route: { method: "POST", path: "/touch" },
  input: Schema.Struct({ note: Schema.optional(Schema.String) }),
  output: Schema.Struct({ touched: Schema.String }),
  permission: "playbook:write",
  handle: (_input, { playbook }) => Effect.succeed({ touched: playbook!.id })
})

/** A query whose handler fails in the way its input names: a defect, a throw, an interruption. */
export const misbehave = declare({
  ...common,
  name: "misbehave",
  title: "Misbehave",
  description: "Test-only: a handler with a defect.",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/misbehave" },
  input: Schema.Struct({ how: Schema.Literal("die", "throw", "interrupt") }),
  output: Schema.Struct({}),
  permission: "org:read",
  handle: (input) => {
    if (input.how === "throw") throw new Error("thrown inside a handler")
    return input.how === "die" ? Effect.die(new Error("died inside a handler")) : Effect.interrupt
  }
})

/** A query refused as unavailable with the kind, because and retry delay its query string gives. */
export const unavailable = declare({
  ...common,
  name: "be_unavailable",
  title: "Be unavailable",
  description: "Test-only: refuses as unavailable.",
  kind: "query",
  scope: "org",
  route: { method: "GET", path: "/unavailable" },
  input: Schema.Struct({
    kind: Schema.optional(Schema.String),
    because: Schema.optional(Schema.String),
    retry_after: Schema.optional(Schema.Number)
  }),
  output: Schema.Struct({}),
  permission: "org:read",
  refusals: ["unavailable"],
  handle: (input) =>
    Effect.fail(
      reject("unavailable", "Not now.", {
        ...(input.kind === undefined ? {} : { kind: input.kind }),
        ...(input.because === undefined ? {} : { because: input.because }),
        ...(input.retry_after === undefined ? {} : { retryAfter: input.retry_after })
      })
    )
})
