/** `tool_call_started`: a call about to be sent (function-formats.md §1.8), appended before it is sent. */
export interface ToolCallStarted {
  readonly number: number
  readonly call_id: string
  readonly server: string
  readonly connection_id?: string
  readonly tool: string
  readonly arguments_bytes: number
  /** The digest the arguments are kept under; only when they were kept. */
  readonly arguments_sha256?: string
  readonly content_kept: boolean
  /** Present, true, when the tool's mark is `reads`. */
  readonly read_only?: true
}

/** `tool_call_answered`: the tool answered, with `is_error` when its answer is an error of its own. */
export interface ToolCallAnswered {
  readonly number: number
  readonly is_error: boolean
  readonly result_bytes: number
  readonly result_sha256?: string
  readonly content_kept: boolean
  readonly shown_bytes?: number
  readonly duration_ms: number
  readonly jsonrpc_id: string | number | null
  readonly server_request_id?: string
}

/** Why a call never answered. */
export type ToolCallFailure =
  | "arguments_refused"
  | "server_failure"
  | "timed_out"
  | "cancelled"
  | "too_large"
  | "interrupted"

/** `tool_call_failed`: the call was sent and never answered. */
export interface ToolCallFailedData {
  readonly number: number
  readonly because: ToolCallFailure
  readonly detail: string
  readonly duration_ms: number
  readonly jsonrpc_id: string | number | null
  readonly server_request_id?: string
}

/** The fact types of a tool call, the same on a run's stream and on a call made by hand. */
export const toolCallFactTypes = ["tool_call_started", "tool_call_answered", "tool_call_failed"] as const

/** The stream of a call made by hand, with no run: `playbook/<org>/<playbook>/tool-calls/<call id>`. */
export const toolCallStream = (org: string, playbook: string, callId: string): string =>
  `playbook/${org}/${playbook}/tool-calls/${callId}`

/** Whose the content of a playbook's calls is, in the content store: `<org>/<playbook>`. */
export const contentOwner = (org: string, playbook: string): string => `${org}/${playbook}`
