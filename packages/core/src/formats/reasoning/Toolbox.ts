import { Effect } from "effect"
import type { Rejection } from "../../domain/Rejection.js"
import type { ModelMessage, ModelTool, ModelToolCall } from "../../ports/ModelProvider.js"
import { shownToolCalls } from "./modelCallFacts.js"

/** What the tools a run called tell its ending (function-formats.md §2.9). */
export interface ToolsCalled {
  /** How many calls were recorded. */
  readonly count: number
  /** Whether every tool called is marked `reads`. */
  readonly onlyRead: boolean
  /** The tools called, as `server/tool`, for the words of an ending. */
  readonly names: ReadonlyArray<string>
}

/** Why the loop must stop calling tools: the run ends, `because` one of §2.6's bounds. */
export interface ToolsStop {
  readonly because: "server_failed"
  readonly detail: string
}

/**
 * The tools a run offers its model, opened before the first call (function-formats.md §2.6): their model-facing
 * definitions, and how one step's calls are carried out and recorded. A run without tools has `noTools`.
 */
export interface Toolbox {
  readonly offered: ReadonlyArray<ModelTool>
  /** Carries out the calls one answer asked for, in order, and answers what the model is told of each. */
  readonly call: (
    calls: ReadonlyArray<ModelToolCall>
  ) => Effect.Effect<{ readonly results: ReadonlyArray<ModelMessage>; readonly stop?: ToolsStop }, Rejection>
  /** Whether the loop reached its bound of calls, so the next step is the final one. */
  readonly spent: () => boolean
  readonly called: () => ToolsCalled
  /** The ids of the calls whose content is not kept (their server's `record_content` is off). */
  readonly unrecorded: () => ReadonlySet<string>
  /**
   * The calls an answer asks for as its `model_call_answered` keeps them: their arguments scrubbed, or only their
   * size where the server keeps no content. A run performed again makes the calls it had not made yet with them
   * (ADR 0330, ADR 0345).
   */
  readonly shownCalls: (calls: ReadonlyArray<ModelToolCall>) => ReturnType<typeof shownToolCalls>
}

/** The toolbox of a run that names no tools. */
export const noTools: Toolbox = {
  offered: [],
  call: () => Effect.succeed({ results: [] }),
  spent: () => true,
  called: () => ({ count: 0, onlyRead: true, names: [] }),
  unrecorded: () => new Set(),
  shownCalls: (calls) =>
    shownToolCalls(
      calls,
      (text) => text,
      () => false
    )
}
