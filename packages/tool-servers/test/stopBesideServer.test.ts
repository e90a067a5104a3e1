import { spawn, spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const child = fileURLToPath(new URL("./fakes/stopsBesideStubbornServer.mjs", import.meta.url))
const server = fileURLToPath(new URL("./fakes/inventoryStdio.mjs", import.meta.url))

/** The processes whose command line holds `mark`. */
const running = (mark: string): string => spawnSync("pgrep", ["-f", mark]).stdout.toString().trim()

describe("a runtime that stops beside a stdio server ignoring the end of its input", () => {
  it("stops the server as it stops (the SDK signals it once its input ended unheeded), before its process ends", async () => {
    const mark = `runledger-stubborn-${process.pid}-${Date.now()}`
    const output = await new Promise<string>((resolve, reject) => {
      let text = ""
      const stopping = spawn(process.execPath, [child, server, mark], { stdio: ["ignore", "pipe", "inherit"] })
      stopping.stdout.on("data", (chunk) => {
        text += String(chunk)
      })
      stopping.on("error", reject)
      stopping.on("exit", () => resolve(text))
    })
    expect(output).toMatch(/listed \d+\nstopped\n/)
    // The server is gone once the runtime's process has ended (a moment for the signal to land).
    const until = Date.now() + 1_000
    while (running(mark) !== "" && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50))
    const left = running(mark)
    if (left !== "") spawnSync("pkill", ["-f", mark])
    expect(left).toBe("")
  }, 30_000)
})
