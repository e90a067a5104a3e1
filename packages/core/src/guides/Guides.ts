import { computationFunctionGuide } from "./computationFunction.js"
import { interactionFunctionGuide } from "./interactionFunction.js"
import { startGuide } from "./start.js"
import { terminologyGuide } from "./terminology.js"
import { workflowGuide } from "./workflow.js"

/** A guide the runtime serves as `guide://<name>`, by get_guide and at `GET /v1/guides/<name>`, with the same text. */
export interface Guide {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly text: string
}

/** Every guide this runtime serves, `start` first. A format's guide joins when its format lands. */
export const guides: ReadonlyArray<Guide> = [
  {
    name: "start",
    title: "Start here",
    description:
      "Where an agent begins: what a playbook is made of, what a workflow owns, and which guide each task needs.",
    text: startGuide
  },
  {
    name: "terminology",
    title: "Terminology",
    description: "What the words of a playbook mean.",
    text: terminologyGuide
  },
  {
    name: "computation-function",
    title: "Computation functions",
    description: "The computation function's document: deterministic TypeScript over JSON, its library and its bounds.",
    text: computationFunctionGuide
  },
  {
    name: "interaction-function",
    title: "Interaction functions",
    description:
      "The interaction function's document: a request held for an agent, its answer schema, expiry and endings.",
    text: interactionFunctionGuide
  },
  {
    name: "workflow",
    title: "Workflows",
    description:
      "The workflow document: tasks, data between them, expressions, calls, events, errors and retries, limits.",
    text: workflowGuide
  }
]

/** The guide of a name, if the runtime serves one. */
export const findGuide = (name: string): Guide | undefined => guides.find((guide) => guide.name === name)
