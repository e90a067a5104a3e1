import { problemBase, type StandardError, standardType } from "./faults.js"
import type { Fault } from "./RunStateShape.js"
import type { CallAnswer } from "./WorkflowInput.js"

/** The largest callee output a call takes: 1 MiB as JSON (workflow-format.md §7.1). */
export const maxCallOutputBytes = 1_048_576

const typeAndStatus = (reason: string, kind: string | undefined): readonly [string, number] => {
  const standard = (name: StandardError, status: number) => [standardType(name), status] as const
  if (reason === "conflict" && kind === "tools_called") return [`${problemBase}tools_called`, 409]
  if (reason === "unavailable" && kind === "tools_unfinished") return [`${problemBase}tools_unfinished`, 503]
  switch (reason) {
    case "invalid_input":
    case "invalid_arguments":
      return standard("validation", 400)
    case "forbidden":
      return standard("authorization", 403)
    case "not_found":
      return standard("configuration", 404)
    case "conflict":
      return standard("runtime", 409)
    case "unavailable":
      return standard("communication", 503)
    case "cancelled":
      return [`${problemBase}cancelled`, 409]
    case "unanswered":
      return [`${problemBase}unanswered`, 410]
    default:
      return standard("runtime", 500)
  }
}

/** What a call names: the callee's type and name, for the error's title. */
export interface Callee {
  readonly type: string
  readonly name: string
  readonly runId: string
}

/**
 * The error a call raises for its callee's ending (workflow-format.md §7.4): the type and status of the table, a
 * title naming the definition (and the rejection's reason), the callee's detail, its `kind` and `because`, and the
 * callee's ending for the run's `cause`.
 */
export const callFault = (
  answer: Exclude<CallAnswer, { status: "succeeded" }>,
  callee: Callee,
  instance: string
): Fault => {
  const named = `${callee.type} ${callee.name}`
  const detail = answer.detail === undefined ? {} : { detail: answer.detail }
  switch (answer.status) {
    case "rejected": {
      const [type, status] = typeAndStatus(answer.reason, answer.kind)
      const extra = {
        ...(answer.kind === undefined ? {} : { kind: answer.kind }),
        ...(answer.because === undefined ? {} : { because: answer.because })
      }
      return {
        error: { type, status, instance, title: `${named} was rejected: ${answer.reason}`, ...detail, ...extra },
        call: { run_id: callee.runId, status: "rejected", reason: answer.reason, ...extra }
      }
    }
    case "failed":
      return {
        error: { type: standardType("runtime"), status: 500, instance, title: `${named} failed`, ...detail },
        call: { run_id: callee.runId, status: "failed" }
      }
    case "unreachable":
      return {
        error: {
          type: standardType("communication"),
          status: 503,
          instance,
          title: `${named} could not be reached`,
          ...detail
        },
        call: { run_id: callee.runId, status: "unreachable" }
      }
  }
}

/** The error of a call whose wait passed (§7.2): `ERR/timeout` 408; the callee is cancelled with kind `deadline`. */
export const callDeadlineFault = (callee: Callee, instance: string): Fault => ({
  error: {
    type: standardType("timeout"),
    status: 408,
    instance,
    title: `${callee.type} ${callee.name} ran past its wait`
  },
  call: { run_id: callee.runId, status: "timed_out" }
})

/** The error of a callee whose output is over 1 MiB: the call fails (§7.1). */
export const oversizedOutputFault = (callee: Callee, instance: string): Fault => ({
  error: {
    type: standardType("runtime"),
    status: 500,
    instance,
    title: `${callee.type} ${callee.name} answered more than 1 MiB`
  },
  call: { run_id: callee.runId, status: "failed" }
})
