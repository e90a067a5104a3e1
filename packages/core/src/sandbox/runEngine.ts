import type { SandboxProgram } from "../ports/Sandbox.js"
import { type FreshContext, isFresh, openFreshContext } from "./freshContext.js"
import { type KeptEngine, newKeptEngine } from "./keptEngine.js"
import { type PreparedProgram, prepareProgram } from "./prepareProgram.js"
import type { RunJob } from "./protocol.js"
import { recentMemo } from "./recentMemo.js"
import { computationBounds } from "./sandboxBounds.js"

/** A QuickJS module of the computation sandbox, and the run context it keeps when its build's layout is known. */
export type RunEngine = KeptEngine<FreshContext>

/**
 * A new module, and its kept context opened under the default bounds (each run sets its own as it starts; decision
 * 0235): the same engine in a run worker and on the calling thread (decision 0418), so a run ends the same in both.
 */
export const newRunEngine = (): Promise<RunEngine> =>
  newKeptEngine((module, layout) => {
    const kept = openFreshContext(module, computationBounds, layout)
    return isFresh(kept) ? kept : undefined
  })

/** Programs made ready to run, by their text and first line as JSON (the last 64). */
const preparedKept = recentMemo((program) => prepareProgram(JSON.parse(program) as SandboxProgram), 64)

/** The job's program made ready to run, worked out once for the last 64 programs. */
export const preparedProgramOf = (job: RunJob): PreparedProgram => preparedKept(JSON.stringify(job.program))
