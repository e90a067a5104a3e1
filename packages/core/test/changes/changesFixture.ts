import { type Fact, Ledger } from "@runledger/core"
import { Effect, Either } from "effect"
import type { makeRuntime } from "../runtimeFixture.js"

type Fixture = ReturnType<typeof makeRuntime>

/** Calls an operation and returns its output, failing the test on a refusal. */
export const okOn =
  (fixture: () => Fixture) =>
  async (
    key: string,
    operation: string,
    input: unknown,
    more: { org?: string; playbook?: string } = {}
  ): Promise<any> => {
    const result = await fixture().call(key, operation, input, more)
    if (Either.isLeft(result)) throw new Error(`${operation} refused: ${JSON.stringify(result.left)}`)
    return result.right.output
  }

/** Calls an operation expected to be refused, and returns its rejection. */
export const refusedOn =
  (fixture: () => Fixture) =>
  async (key: string, operation: string, input: unknown, more: { org?: string; playbook?: string } = {}) => {
    const result = await fixture().call(key, operation, input, more)
    if (Either.isRight(result)) throw new Error(`${operation} was expected to be refused`)
    return result.left
  }

/** Appends one fact to a stream, as a module this test does not run would record it. */
export const appendFact = (
  fixture: Fixture,
  stream: string,
  type: string,
  data: unknown,
  metadata: Partial<Fact["metadata"]> = {}
) =>
  fixture.runtime.runPromise(
    Effect.flatMap(Ledger, (ledger) =>
      ledger.append([
        {
          stream,
          expected: "any",
          facts: [
            {
              id: crypto.randomUUID(),
              type,
              data,
              metadata: {
                correlation_id: null,
                causation_id: null,
                at: new Date().toISOString(),
                by: "key:build-bot",
                ...metadata
              }
            }
          ]
        }
      ])
    )
  )
