import type { Task } from "../../formats/workflow/Task.js"
import type { Variables } from "./evaluation.js"
import type { Machine } from "./Machine.js"
import type { TaskFrame, Thread } from "./RunStateShape.js"

/** `$runtime.name`: the runtime package's name (workflow-format.md §0, `RUNTIME_NAME`). */
export const runtimeName = "@runledger/core"

/** A time as `startedAt` values show it (§5.2): ISO 8601 and epoch seconds and milliseconds. */
export const timeForm = (at: number) => ({
  iso8601: new Date(at).toISOString(),
  epoch: { seconds: Math.floor(at / 1000), milliseconds: at }
})

/** `$workflow` and `$runtime` (§5.2, ADR 0255): what every run expression sees. */
export const runVariables = (machine: Machine): Variables => {
  const { state, document } = machine
  return {
    $workflow: {
      id: state.runId,
      definition: {
        document: {
          dsl: document.dsl,
          namespace: document.namespace,
          name: document.name,
          version: document.version,
          ...(document.title === undefined ? {} : { title: document.title }),
          ...(document.summary === undefined ? {} : { summary: document.summary })
        }
      },
      input: state.input,
      startedAt: timeForm(state.startedAt)
    },
    $runtime: { name: runtimeName, version: state.runtimeVersion, metadata: { type: "workflow" } }
  }
}

/** What a task expression sees besides `$data` (§5.2): `$input`, `$output` where the place has them. */
export interface TaskPlace {
  readonly data: unknown
  readonly input?: unknown
  readonly output?: unknown
  /** The task's output once the body ran (`$task.output`). */
  readonly produced?: unknown
}

/**
 * The variables of one place of a task (§5.2): `$data`, `$input`/`$output` where given, `$context` of its thread,
 * `$task`, `$workflow`, `$runtime` and the names the enclosing lists add.
 */
export const taskVariables = (
  machine: Machine,
  task: Task,
  frame: TaskFrame,
  thread: Thread,
  scope: Variables,
  place: TaskPlace
): Variables => ({
  ...scope,
  ...runVariables(machine),
  $data: place.data,
  ...("input" in place ? { $input: place.input } : {}),
  ...("output" in place ? { $output: place.output } : {}),
  $context: thread.context,
  $task: {
    name: task.name,
    reference: task.reference,
    definition: { kind: task.body.kind },
    input: frame.input,
    startedAt: timeForm(frame.at),
    ...("produced" in place ? { output: place.produced } : {})
  }
})
