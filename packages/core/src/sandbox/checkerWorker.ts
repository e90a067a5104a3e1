import { parentPort } from "node:worker_threads"
import { makeChecker } from "./checkProgram.js"
import { type CheckAnswer, type CheckJob, workerReady } from "./protocol.js"

/**
 * The checker worker (function-formats.md §4.2): loads TypeScript and the sandbox's library once, checks one
 * small program to warm the compiler, then answers checks one at a time.
 */
const port = parentPort!
const check = makeChecker()
check({
  program: { source: "export default function (input: Input): Output { return input }", firstLine: 1 },
  declarations: "type Json = unknown; type Input = Json; type Output = Json;"
})
port.on("message", (job: CheckJob) => {
  let answer: CheckAnswer
  try {
    answer = { _tag: "Checked", issues: check(job) }
  } catch (error) {
    answer = { _tag: "Broke", detail: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(answer)
})
port.postMessage(workerReady)
