export { answerTool } from "./anthropicMessages.js"
export * as HttpModelProvider from "./HttpModelProvider.js"
