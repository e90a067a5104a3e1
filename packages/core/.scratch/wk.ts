import { parentPort } from "node:worker_threads"
import { cutText } from "../src/formats/cutText.js"
const x: number = 5
parentPort!.postMessage(cutText("héllo".repeat(400), 20) + x)
