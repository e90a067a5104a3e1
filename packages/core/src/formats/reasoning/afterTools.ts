import { type Rejection, reject } from "../../domain/Rejection.js"
import type { ToolsCalled } from "./Toolbox.js"

/**
 * An `unavailable` ending of a run that called tools (function-formats.md §2.9): `unavailable`/`tools_unfinished`
 * without Retry-After when every tool called only reads, so a new run is safe; else `conflict`/`effect_unknown`.
 * Either keeps the `because` and names the tools called. Other endings, and runs that called nothing, stay.
 */
export const afterTools = (rejection: Rejection, called: ToolsCalled): Rejection => {
  if (called.count === 0 || rejection.reason !== "unavailable") return rejection
  const tools = called.names.join(", ")
  const because = rejection.because === undefined ? {} : { because: rejection.because }
  return called.onlyRead
    ? reject(
        "unavailable",
        `${rejection.detail} The run had called ${tools}, which only read, so nothing was changed; run it again under a new run id.`,
        { kind: "tools_unfinished", ...because }
      )
    : reject(
        "conflict",
        `${rejection.detail} The run had called ${tools}; whether they changed something is not known, so check before running it again.`,
        { kind: "effect_unknown", ...because }
      )
}
