import type { Reporter, TestModule } from "vitest/node"

/**
 * Ends a test run with one plain line of counts, `tests: N passed, N failed, N skipped`, for readers of CI logs;
 * it waits a moment so that the default reporter's summary is printed before it.
 */
export default class ClosingLineReporter implements Reporter {
  async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 50))
    const counts = { passed: 0, failed: 0, skipped: 0 }
    for (const module of modules)
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") counts.passed++
        else if (state === "failed") counts.failed++
        else counts.skipped++
      }
    console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`)
  }
}
