import { randomUUID } from "node:crypto"

/** A fact as the Postgres store sends it in an append: its stream and content, without its position. */
export interface SentFact {
  readonly stream: string
  readonly id: string
  readonly type: string
  readonly data: unknown
  readonly metadata: { readonly run_id?: string } & Record<string, unknown>
}

/** A view document as the Postgres store writes it. */
export interface SentDocument {
  readonly view: string
  readonly partition: string
  readonly id: string
  readonly sort: string
  readonly data: unknown
}

/** What one call step wrote: the facts of its append and the view documents they changed, as sent. */
export interface StepWrites {
  readonly facts: ReadonlyArray<SentFact>
  readonly documents: ReadonlyArray<SentDocument>
  /** The workflow run's id (the run of the step's `workflow_input_applied`). */
  readonly workflowRunId: string
  /** The other runs the step wrote facts of (its callee's). */
  readonly calleeRunIds: ReadonlyArray<string>
}

/** The function of the Postgres store whose statement records an append of known documents in one round trip. */
const knownAppendFunction = "runledger_append_known"

/**
 * Whether a statement's text appends one call step: one workflow input, and a callee run started with it (not a
 * batch of several runs' steps, as group commit sends while runs go at once).
 */
export const isCallStepAppend = (text: string): boolean =>
  text.includes(knownAppendFunction) &&
  occursOnce(text, '"type":"workflow_input_applied"') &&
  occursOnce(text, '"type":"run_started"')

const occursOnce = (text: string, part: string): boolean => {
  const first = text.indexOf(part)
  return first >= 0 && text.lastIndexOf(part) === first
}

/** The JSON values a statement's text carries as `$runledger$…$runledger$::jsonb` literals (`sqlLiterals.ts`). */
const jsonLiterals = (text: string): ReadonlyArray<unknown> =>
  [...text.matchAll(/\$runledger\$(.*?)\$runledger\$::jsonb/gs)].flatMap((match) => {
    try {
      return [JSON.parse(match[1]!) as unknown]
    } catch {
      return []
    }
  })

const isArrayOf = (value: unknown, keys: ReadonlyArray<string>): value is ReadonlyArray<Record<string, unknown>> =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((item) => typeof item === "object" && item !== null && keys.every((key) => key in item))

/**
 * Reads a call step's writes from the text of the store's `runledger_append_known` statement that recorded it (one
 * append, as the sequential row sends them): the facts literal and the documents literal. Why it cannot, otherwise.
 */
export const stepWritesOf = (text: string): StepWrites | string => {
  const literals = jsonLiterals(text)
  const facts = literals.find((value) => isArrayOf(value, ["stream", "id", "type", "data", "metadata"]))
  const documents = literals.find((value) => isArrayOf(value, ["view", "partition", "id", "sort", "data"]))
  if (facts === undefined || documents === undefined) return "the append's facts or documents were not found in it"
  const sentFacts = facts as unknown as ReadonlyArray<SentFact>
  const workflowRunId = sentFacts.find(isWorkflowInput)?.metadata.run_id
  if (workflowRunId === undefined) return "it holds no workflow_input_applied of a run"
  const calleeRunIds = [
    ...new Set(sentFacts.flatMap((fact) => (fact.metadata.run_id === undefined ? [] : [fact.metadata.run_id])))
  ].filter((runId) => runId !== workflowRunId)
  return {
    facts: sentFacts,
    documents: documents as unknown as ReadonlyArray<SentDocument>,
    workflowRunId,
    calleeRunIds
  }
}

const isWorkflowInput = (fact: SentFact): boolean => fact.type === "workflow_input_applied"

/** The step's `workflow_input_applied`: the fact that records the step itself (`stepWritesOf` made sure of one). */
export const workflowInputOf = (writes: StepWrites): SentFact => writes.facts.find(isWorkflowInput)!

/** One statement's parameters: the facts' rows and the documents, each as JSON text. */
export interface WritesPayload {
  readonly facts: string
  readonly documents: string
}

/**
 * Makes the payloads that replay `writes` as `chains` workflows of `steps` steps each would write them: each chain
 * its own workflow run (its stream's positions going on from one step to the next, its own documents written over),
 * each step its own callee runs and fact ids, and documents of no run (the day's analytics) shared by all. The ids
 * are swapped in the JSON text, so every payload has the captured one's size. `grouped` puts one step of every
 * chain in each payload (one statement a round, as group commit would send them), a document written by several of
 * them once, as the store folds a batch; otherwise one payload per step, chain after chain.
 */
export const replayPayloads = (
  writes: StepWrites,
  chains: number,
  steps: number,
  grouped: boolean
): ReadonlyArray<WritesPayload> => {
  const factsText = JSON.stringify(writes.facts)
  const documentsText = JSON.stringify(writes.documents)
  const workflows = Array.from({ length: chains }, () => randomUUID())
  const positions = new Map<string, number>()
  const step = (chain: number) => {
    const swaps = new Map<string, string>([[writes.workflowRunId, workflows[chain]!]])
    for (const runId of writes.calleeRunIds) swaps.set(runId, randomUUID())
    for (const fact of writes.facts) swaps.set(fact.id, randomUUID())
    const swap = (text: string) => {
      let swapped = text
      for (const [from, to] of swaps) swapped = swapped.replaceAll(from, to)
      return swapped
    }
    const facts = (JSON.parse(swap(factsText)) as ReadonlyArray<SentFact>).map((fact) => {
      const position = (positions.get(fact.stream) ?? 0) + 1
      positions.set(fact.stream, position)
      return { ...fact, position }
    })
    return { facts, documents: JSON.parse(swap(documentsText)) as ReadonlyArray<SentDocument> }
  }
  const payloads: Array<WritesPayload> = []
  if (!grouped) {
    for (let chain = 0; chain < chains; chain++)
      for (let index = 0; index < steps; index++) {
        const { facts, documents } = step(chain)
        payloads.push({ facts: JSON.stringify(facts), documents: JSON.stringify(documents) })
      }
    return payloads
  }
  for (let index = 0; index < steps; index++) {
    const round = Array.from({ length: chains }, (_, chain) => step(chain))
    const documents = new Map<string, SentDocument>()
    for (const document of round.flatMap((written) => written.documents))
      documents.set(JSON.stringify([document.view, document.partition, document.id]), document)
    payloads.push({
      facts: JSON.stringify(round.flatMap((written) => written.facts)),
      documents: JSON.stringify([...documents.values()])
    })
  }
  return payloads
}
