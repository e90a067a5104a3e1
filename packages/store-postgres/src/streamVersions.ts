import { type AppendResult, type StreamAppend, VersionConflict } from "@runledger/core"
import { Effect } from "effect"
import { forgetOldest } from "./forgetOldest.js"

/** How many streams an instance remembers the version of; the least recently noted are forgotten first. */
const capacity = 4_096

/**
 * How many streams an instance remembers as written by itself alone: about as many as the documents it knows
 * (`knownDocuments.ts`, 4,096) hold of a few documents each, so a stream is rarely remembered past its documents.
 */
const wholeCapacity = 1_024

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
  /**
   * Whether this instance appended every fact of `stream` up to `version` itself (ADR 0415): it made the stream and
   * each append since was its own, none in between; so a document of the stream this instance never saw is absent.
   */
  readonly wroteAll: (stream: string, version: number) => boolean
  /** Notes what an append of this instance committed: the versions it expected and those it reached. */
  readonly appended: (appends: ReadonlyArray<StreamAppend>, reached: ReadonlyMap<string, number>) => void
  /** Forgets that streams were written here alone. */
  readonly disown: (streams: Iterable<string>) => void
}

/** An empty memory of stream versions. */
export const makeStreamVersions = (): StreamVersions => {
  const seen = new Map<string, number>()
  /** The streams written here alone, with the version this instance's last append left each at. */
  const whole = new Map<string, number>()
  const disown = (streams: Iterable<string>) => {
    for (const stream of streams) whole.delete(stream)
  }
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
        if (version !== whole.get(stream)) whole.delete(stream)
        if (version <= (seen.get(stream) ?? 0)) continue
        seen.delete(stream)
        seen.set(stream, version)
        forgetOldest(seen, capacity)
      }
    },
    wroteAll: (stream, version) => whole.get(stream) === version,
    appended: (appends, reached) => {
      const counted = new Set<string>()
      for (const { stream, expected } of appends) {
        if (counted.has(stream)) continue
        counted.add(stream)
        const version = reached.get(stream)
        const alone = expected === 0 || (expected !== "any" && whole.get(stream) === expected)
        whole.delete(stream)
        if (!alone || version === undefined) continue
        whole.set(stream, version)
        forgetOldest(whole, wholeCapacity)
      }
    },
    disown
  }
}

/**
 * Notes the versions an append of `appends` reached (and which streams it leaves written here alone), or the version
 * PostgreSQL said a refused append's stream was at.
 */
export const seenBy =
  (versions: StreamVersions, appends: ReadonlyArray<StreamAppend>) =>
  <E, R>(append: Effect.Effect<AppendResult, E, R>): Effect.Effect<AppendResult, E, R> =>
    append.pipe(
      Effect.tap((result) =>
        Effect.sync(() => {
          versions.appended(appends, result.versions)
          versions.saw(result.versions)
        })
      ),
      Effect.tapError((error) =>
        Effect.sync(() => {
          if (error instanceof VersionConflict && typeof error.actual === "number")
            versions.saw([[error.stream, error.actual]])
        })
      )
    )
