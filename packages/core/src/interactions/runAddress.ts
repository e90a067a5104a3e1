/** Where a run lives: its org, playbook and id, read from its stream `playbook/<org>/<playbook>/runs/<run id>`. */
export interface RunAddress {
  readonly org: string
  readonly playbook: string
  readonly runId: string
}

/** The run a stream holds, or undefined for a stream that is not a run's. */
export const runAddressOf = (stream: string): RunAddress | undefined => {
  const [root, org, playbook, runs, runId, ...rest] = stream.split("/")
  if (root !== "playbook" || runs !== "runs" || rest.length > 0 || !org || !playbook || !runId) return undefined
  return { org, playbook, runId }
}

/** The streams of runs among `streams`, in their order. */
export const runStreamsOf = (streams: ReadonlyArray<string>): ReadonlyArray<string> =>
  streams.filter((stream) => runAddressOf(stream) !== undefined)
