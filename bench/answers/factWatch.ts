import { type Fact, Ledger } from "@runledger/core"
import { Effect, Layer } from "effect"

/** Which facts a watch notes under one name: the key a fact is noted by (its run's id), or undefined to pass it. */
export type Watched = (fact: Fact) => string | undefined

/** The facts of one type, keyed by their run. */
export const ofType =
  (type: string): Watched =>
  (fact) =>
    fact.type === type ? fact.metadata.run_id : undefined

/** A workflow run's `workflow_input_applied` that took a call's answer (`call_answered`), keyed by the workflow run. */
export const tookCallAnswer: Watched = (fact) =>
  fact.type === "workflow_input_applied" &&
  (fact.data as { readonly input?: { readonly kind?: string } }).input?.kind === "call_answered"
    ? fact.metadata.run_id
    : undefined

/**
 * When some facts were recorded, seen from inside the ledgers that record them: the moment their append returned
 * (committed). Each name watches the facts its `Watched` keys; `until(name, key)` resolves with that
 * `performance.now()` time, whether the append came before or after the call.
 */
export class FactWatch {
  private readonly recorded = new Map<string, number>()
  private readonly waiting = new Map<string, (at: number) => void>()

  constructor(private readonly watched: Readonly<Record<string, Watched>>) {}

  /** Notes that a watched fact was recorded at `at`. */
  private record(key: string, at: number): void {
    const resolve = this.waiting.get(key)
    if (resolve === undefined) this.recorded.set(key, at)
    else {
      this.waiting.delete(key)
      resolve(at)
    }
  }

  /** The time the fact watched as `name` with this key was recorded, once it is. */
  until(name: string, key: string): Promise<number> {
    const noted = `${name}/${key}`
    const at = this.recorded.get(noted)
    if (at !== undefined) {
      this.recorded.delete(noted)
      return Promise.resolve(at)
    }
    return new Promise((resolve) => this.waiting.set(noted, resolve))
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
                for (const [name, keyOf] of Object.entries(this.watched)) {
                  const key = keyOf(fact)
                  if (key !== undefined) this.record(`${name}/${key}`, at)
                }
            })
          )
      }))
    ).pipe(Layer.provideMerge(store))
  }
}
