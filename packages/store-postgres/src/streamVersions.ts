import { type AppendResult, type StreamAppend, VersionConflict } from "@runledger/core"
import { Effect } from "effect"

/** How many streams an instance remembers the version of; the least recently noted are forgotten first. */
const capacity = 4_096

/**
 * The versions this instance saw its streams reach (ADR 0410): what its appends committed and what PostgreSQL said
 * of a refused one. A stream's version only grows, so an append that expects less than a version seen here would
 * certainly be refused: it is refused at once, without a round trip and without a place in a group commit's batch
 * (ADR 0407), where appends claiming one stream at one version would otherwise keep meeting the batch before them.
 */
export interface StreamVersions {
  /** The conflict an append certainly meets, if any: a stream it expects at less than a version seen. */
  readonly staleOf: (appends: ReadonlyArray<StreamAppend>) => VersionConflict | undefined
  /** Notes that streams reached these versions. */
  readonly saw: (versions: Iterable<readonly [string, number]>) => void
}

/** An empty memory of stream versions. */
export const makeStreamVersions = (): StreamVersions => {
  const seen = new Map<string, number>()
  return {
    staleOf: (appends) => {
      for (const { stream, expected } of appends) {
        if (expected === "any") continue
        const actual = seen.get(stream)
        if (actual !== undefined && expected < actual) return new VersionConflict({ stream, expected, actual })
      }
      return undefined
    },
    saw: (versions) => {
      for (const [stream, version] of versions) {
        if (version <= (seen.get(stream) ?? 0)) continue
        seen.delete(stream)
        seen.set(stream, version)
        if (seen.size > capacity) seen.delete(seen.keys().next().value!)
      }
    }
  }
}

/** Notes the versions an append reached, or the version PostgreSQL said a refused append's stream was at. */
export const seenBy =
  (versions: StreamVersions) =>
  <E, R>(append: Effect.Effect<AppendResult, E, R>): Effect.Effect<AppendResult, E, R> =>
    append.pipe(
      Effect.tap((result) => Effect.sync(() => versions.saw(result.versions))),
      Effect.tapError((error) =>
        Effect.sync(() => {
          if (error instanceof VersionConflict && typeof error.actual === "number")
            versions.saw([[error.stream, error.actual]])
        })
      )
    )
