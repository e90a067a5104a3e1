import { SqlError } from "@effect/sql/SqlError"
import { type AppendResult, StoreUnavailable, type StreamAppend, type VersionConflict } from "@runledger/core"
import { Cause, Deferred, Effect, Either, Queue, type Scope } from "effect"
import type { BatchedAppend } from "./appendProjecting.js"
import { refusedAppend } from "./refusedAppend.js"
import { type StreamVersions, seenBy } from "./streamVersions.js"
import { unavailable } from "./unavailable.js"

/** The most appends one transaction carries. */
const maxBatch = 64

/** An append waiting for its batch, and where its outcome goes. */
interface Waiting {
  readonly appends: ReadonlyArray<StreamAppend>
  readonly outcome: Deferred.Deferred<AppendResult, VersionConflict | StoreUnavailable>
}

/**
 * Whether a batch that failed as a whole certainly committed nothing, so its appends can each be tried again
 * alone: PostgreSQL refused a statement (pg's `DatabaseError`, which carries a `severity`: a fact id already
 * recorded, a text it cannot keep), or the fold broke. A connection lost mid-way may have committed: its appends
 * fail as they would alone.
 */
const triedAgainAlone = (cause: Cause.Cause<SqlError>): boolean =>
  Cause.isDie(cause) ||
  [...Cause.failures(cause)].some(
    (error) =>
      error instanceof SqlError && typeof (error.cause as { severity?: unknown } | undefined)?.severity === "string"
  )

/**
 * Group commit of the appends that change view documents (ADR 0407). Appends made while a transaction is on its way
 * wait for it and then go together in the next one, at most `maxBatch`: their streams and documents locked at once,
 * each checked in order against the versions the ones before it left, one fold, one write and one commit, so runs
 * appending at once share a flush and a document many of them change (a day's analytics) is locked once per
 * transaction instead of once per append, each lock held across two round trips. An append is alone in its
 * transaction whenever nothing else waits, so a lone appender's append is what it was. A batch refused as a whole
 * (a fact id already recorded) is tried again one append at a time, so each gets its own answer. `commit` runs one
 * batch. An append that expects a stream at less than a version a batch before it left (`versions`) is refused as
 * the batch is made, without a place in it (ADR 0410).
 */
export const makeAppendBatches = (
  commit: (batch: ReadonlyArray<ReadonlyArray<StreamAppend>>) => Effect.Effect<ReadonlyArray<BatchedAppend>, SqlError>,
  versions: StreamVersions
): Effect.Effect<
  (appends: ReadonlyArray<StreamAppend>) => Effect.Effect<AppendResult, VersionConflict | StoreUnavailable>,
  never,
  Scope.Scope
> =>
  Effect.gen(function* () {
    const waiting = yield* Queue.unbounded<Waiting>()
    let closed = false

    const settle = (entry: Waiting, outcome: Effect.Effect<AppendResult, VersionConflict | SqlError>) =>
      Effect.flatMap(
        Effect.exit(
          outcome.pipe(refusedAppend(entry.appends), unavailable("appending facts"), seenBy(versions, entry.appends))
        ),
        (exit) => Deferred.complete(entry.outcome, exit)
      )

    const commitBatch = (batch: ReadonlyArray<Waiting>): Effect.Effect<void> =>
      commit(batch.map((entry) => entry.appends)).pipe(
        Effect.matchCauseEffect({
          onSuccess: (results) =>
            Effect.forEach(
              batch,
              (entry, index) =>
                settle(
                  entry,
                  Either.match(results[index]!, {
                    onLeft: Effect.fail,
                    onRight: Effect.succeed
                  })
                ),
              { discard: true }
            ),
          onFailure: (cause) =>
            batch.length > 1 && triedAgainAlone(cause)
              ? Effect.forEach(batch, (entry) => commitBatch([entry]), { discard: true })
              : Effect.forEach(batch, (entry) => settle(entry, Effect.failCause(cause)), { discard: true })
        })
      )

    /** Refuses the appends a batch before this one made stale, and commits the others. */
    const commitFresh = (taken: ReadonlyArray<Waiting>): Effect.Effect<void> =>
      Effect.suspend(() => {
        const fresh: Array<Waiting> = []
        const stale: Array<readonly [Waiting, VersionConflict]> = []
        for (const entry of taken) {
          const conflict = versions.staleOf(entry.appends)
          if (conflict === undefined) fresh.push(entry)
          else stale.push([entry, conflict])
        }
        return Effect.zipRight(
          Effect.forEach(stale, ([entry, conflict]) => Deferred.fail(entry.outcome, conflict), { discard: true }),
          fresh.length === 0 ? Effect.void : commitBatch(fresh)
        )
      })

    yield* Queue.take(waiting).pipe(
      Effect.flatMap((first) =>
        Effect.flatMap(Queue.takeUpTo(waiting, maxBatch - 1), (rest) =>
          Effect.uninterruptible(commitFresh([first, ...rest]))
        )
      ),
      Effect.forever,
      Effect.forkScoped
    )
    yield* Effect.addFinalizer(() =>
      Effect.flatMap(
        Effect.sync(() => {
          closed = true
        }),
        () =>
          Effect.flatMap(Queue.takeAll(waiting), (left) =>
            Effect.forEach(left, (entry) => Deferred.fail(entry.outcome, storeClosed()), { discard: true })
          )
      )
    )

    return (appends) =>
      Effect.suspend(() => {
        if (closed) return Effect.fail(storeClosed())
        return Effect.flatMap(Deferred.make<AppendResult, VersionConflict | StoreUnavailable>(), (outcome) =>
          Effect.zipRight(Queue.offer(waiting, { appends, outcome }), Deferred.await(outcome))
        )
      })
  })

const storeClosed = () =>
  new StoreUnavailable({ detail: "The PostgreSQL store closed before the append was committed" })
