import type { AppendsPerStream, BenchConfig } from "./config.js"
import { makeWorkload, type Workload } from "./workload.js"

/** What a figure must reach: facts/s on its own, or a share of its baseline's facts/s. */
export type Target =
  | { readonly kind: "absolute"; readonly factsPerSecond: number }
  | { readonly kind: "ratio"; readonly atLeast: number }

/** One figure of a repetition: an append workload, or reading back everything appended before it. */
export interface Step {
  readonly name: string
  readonly kind: "append" | "read"
  /** The appends (append steps). */
  readonly workload?: Workload
  /** Concurrent appenders (append steps). */
  readonly appenders: number
  readonly target?: Target
}

/** The workloads of one repetition, built once and replayed on every fresh store. */
export interface Workloads {
  readonly single: Workload
  readonly batch: Workload
  readonly concurrent: Workload
}

/** Builds the workloads: `streams` streams (the main run, or a small warm-up), so many appends per stream. */
export const makeWorkloads = (config: BenchConfig, streams: number, appends: AppendsPerStream): Workloads => ({
  single: makeWorkload("single", streams, appends.single, 1),
  batch: makeWorkload("batch", streams, appends.batch, config.batchSize),
  concurrent: makeWorkload("concurrent", streams, appends.single, 1)
})

/** The memory store's steps; its target is absolute (200,000 facts/s appended), the floor is for context. */
export const memorySteps = (workloads: Workloads, pageSize: number): ReadonlyArray<Step> => {
  const target: Target = { kind: "absolute", factsPerSecond: 200_000 }
  return [
    { name: "append 1 fact", kind: "append", workload: workloads.single, appenders: 1, target },
    {
      name: `append ${workloads.batch.batchSize} facts`,
      kind: "append",
      workload: workloads.batch,
      appenders: 1,
      target
    },
    { name: `read all (pages of ${pageSize})`, kind: "read", appenders: 1 }
  ]
}

/** The Postgres store's steps; sequential appends must reach half the plain-INSERT baseline. */
export const postgresSteps = (workloads: Workloads, pageSize: number, appenders: number): ReadonlyArray<Step> => {
  const target: Target = { kind: "ratio", atLeast: 0.5 }
  return [
    { name: "append 1 fact", kind: "append", workload: workloads.single, appenders: 1, target },
    {
      name: `append ${workloads.batch.batchSize} facts`,
      kind: "append",
      workload: workloads.batch,
      appenders: 1,
      target
    },
    ...(appenders > 1
      ? [
          {
            name: `append 1 fact, ${appenders} appenders`,
            kind: "append" as const,
            workload: workloads.concurrent,
            appenders
          }
        ]
      : []),
    { name: `read all (pages of ${pageSize})`, kind: "read", appenders: 1 }
  ]
}
