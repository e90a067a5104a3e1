import { Ledger } from "@runledger/core"
import { Effect, Layer } from "effect"

/**
 * When facts of some types were recorded, seen from inside the ledgers that record them: the moment their append
 * returned (committed). `until(type, runId)` resolves with that `performance.now()` time, whether the append came
 * before or after the call.
 */
export class FactWatch {
  private readonly recorded = new Map<string, number>()
  private readonly waiting = new Map<string, (at: number) => void>()

  constructor(private readonly types: ReadonlyArray<string>) {}

  /** Notes that a fact of a run was recorded at `at`. */
  private record(key: string, at: number): void {
    const resolve = this.waiting.get(key)
    if (resolve === undefined) this.recorded.set(key, at)
    else {
      this.waiting.delete(key)
      resolve(at)
    }
  }

  /** The time a fact of this type of the run was recorded, once it is. */
  until(type: string, runId: string): Promise<number> {
    const key = `${type}/${runId}`
    const at = this.recorded.get(key)
    if (at !== undefined) {
      this.recorded.delete(key)
      return Promise.resolve(at)
    }
    return new Promise((resolve) => this.waiting.set(key, resolve))
  }

  /** A store whose ledger tells this watch of every watched fact it appends; the rest is the store's own. */
  watching<S, E, R>(store: Layer.Layer<S, E, R>) {
    return Layer.effect(
      Ledger,
      Effect.map(Ledger, (ledger) => ({
        ...ledger,
        append: (appends: Parameters<typeof ledger.append>[0]) =>
          Effect.tap(ledger.append(appends), (result) =>
            Effect.sync(() => {
              const at = performance.now()
              for (const fact of result.facts)
                if (this.types.includes(fact.type) && fact.metadata.run_id !== undefined)
                  this.record(`${fact.type}/${fact.metadata.run_id}`, at)
            })
          )
      }))
    ).pipe(Layer.provideMerge(store))
  }
}
