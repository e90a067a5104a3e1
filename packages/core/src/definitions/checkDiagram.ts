import type { InputIssue } from "../domain/Rejection.js"
import type { DefinitionType } from "./DefinitionType.js"
import { fitsBytes } from "./definitionFields.js"

/** The most UTF-8 bytes a diagram may hold. */
export const diagramBound = 8_192

/**
 * The seed's refusals of a save for its diagram: required for functions, refused for a workflow, a Mermaid
 * flowchart or state diagram (or `none`) within 8,192 bytes.
 */
export const checkDiagram = (
  type: DefinitionType,
  diagram: string | undefined
): Pick<InputIssue, "pointer" | "detail"> | undefined => {
  if (type === "workflow")
    return diagram === undefined
      ? undefined
      : {
          pointer: "/diagram",
          detail: "A workflow takes no diagram, since Studio draws a workflow from its steps; leave diagram out"
        }
  if (diagram === undefined)
    return {
      pointer: "/diagram",
      detail: `Say whether this ${type} function has a diagram: give diagram as Mermaid source of a flowchart or a state diagram, or the word none when a picture would add nothing`
    }
  if (!fitsBytes(diagram, diagramBound))
    return {
      pointer: "/diagram",
      detail: `A diagram holds at most 8,192 bytes; this one holds more. Shorten it, or give none.`
    }
  if (diagram.trim() === "none") return undefined
  const firstLine = diagram.trimStart().split(/\r?\n/, 1)[0].trim()
  if (
    /^(flowchart|graph)(\s+(TB|TD|BT|RL|LR))?\s*;?$/.test(firstLine) ||
    /^stateDiagram(-v2)?(\s+.*)?$/.test(firstLine)
  )
    return undefined
  return {
    pointer: "/diagram",
    detail:
      "A diagram is Mermaid source of a flowchart or a state diagram, whose first line is flowchart, graph or stateDiagram (optionally with a direction such as TD), or the word none"
  }
}
