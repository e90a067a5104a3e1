/** A sentence of what a tool-call fact records. */
export const toolCallSummary = (type: string, data: Record<string, unknown>): string => {
  switch (type) {
    case "tool_call_started":
      return `The tool ${String(data.server)}/${String(data.tool)} was called.`
    case "tool_call_answered":
      return data.is_error === true ? "The tool answered with an error of its own." : "The tool answered."
    default:
      return `The tool call failed: ${String(data.because).replaceAll("_", " ")}.`
  }
}
