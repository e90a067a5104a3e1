import { runId } from "./engineFixture.js"

/** The key of a task execution of the test run: `<run id> <reference> <run>`. */
export const executionKeyOf = (reference: string, run: number): string => `${runId} ${reference} ${run}`
