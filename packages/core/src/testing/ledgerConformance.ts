import { Chunk, Context, Effect, Either, Exit, Fiber, Layer, ManagedRuntime, Option, Scope, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { NewFact } from "../domain/Fact.js"
import { uuidv7 } from "../ports/Ids.js"
import { type AppendOptions, type GlobalFilter, Ledger, type PositionedFact } from "../ports/Ledger.js"
import { type Projection, Projections, Views } from "../ports/Views.js"
import { counterProjection, counterView } from "./conformanceProjection.js"

/** Options of the ledger conformance suite. */
export interface LedgerConformanceOptions {
  /** How many concurrent appenders the concurrency tests run (default 8). */
  readonly concurrency?: number
}

/**
 * The conformance suite of the `Ledger` and `Views` ports. A store runs it with its layer; the suite provides the
 * projections. Every test writes streams under a prefix of its own, so the suite runs against a shared database.
 */
export const ledgerConformance = (
  name: string,
  store: Layer.Layer<Ledger | Views, unknown, Projections>,
  options: LedgerConformanceOptions = {}
): void => {
  const concurrency = options.concurrency ?? 8
  describe(`Ledger conformance: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<Ledger | Views, unknown>
    beforeAll(() => {
      runtime = ManagedRuntime.make(store.pipe(Layer.provide(Layer.succeed(Projections, [counterProjection]))))
    })
    afterAll(() => runtime.dispose())
    const run = <A, E>(effect: Effect.Effect<A, E, Ledger | Views>) => runtime.runPromise(effect)

    const prefix = () => `conformance/${uuidv7(Date.now(), crypto.getRandomValues(new Uint8Array(10)))}/`
    const fact = (type: string, data: unknown = {}, correlation: string | null = null): NewFact => ({
      id: uuidv7(Date.now(), crypto.getRandomValues(new Uint8Array(10))),
      type,
      data,
      metadata: { correlation_id: correlation, causation_id: null, at: new Date().toISOString(), by: "conformance" }
    })
    const counted = (partition: string) => fact("counted", { partition })
    const readAllOf = (streamPrefix: string, direction: "forward" | "backward" = "forward", limit = 10_000) =>
      Effect.flatMap(Ledger, (ledger) => ledger.readAll({ direction, limit, filter: { streamPrefix } }))

    it("pages the global order in numeric order across digit boundaries (first, while positions are small)", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const base = prefix()
          for (let index = 0; index < 95; index++)
            yield* ledger.append([
              { stream: `${base}single-${index % 7}`, expected: "any", facts: [fact("single", { index })] }
            ])
          yield* ledger.append([
            {
              stream: `${base}batch`,
              expected: 0,
              facts: Array.from({ length: 120 }, (_, offset) => fact("batched", { index: 95 + offset }))
            }
          ])
          const whole = (yield* readAllOf(base)).map((p) => (p.fact.data as { index: number }).index)
          expect(whole).toEqual(Array.from({ length: 215 }, (_, index) => index))
          for (const direction of ["forward", "backward"] as const) {
            const paged: Array<number> = []
            let from: string | undefined
            for (;;) {
              const page: ReadonlyArray<PositionedFact> = yield* ledger.readAll({
                direction,
                limit: 7,
                filter: { streamPrefix: base },
                ...(from === undefined ? {} : { from })
              })
              if (page.length === 0) break
              paged.push(...page.map((p) => (p.fact.data as { index: number }).index))
              from = page[page.length - 1].position
            }
            expect(paged).toEqual(direction === "forward" ? whole : [...whole].reverse())
          }
        })
      ))

    it("appends to a new stream and reads it back with positions from 1", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const stream = `${prefix()}a`
          const result = yield* ledger.append([{ stream, expected: 0, facts: [fact("one"), fact("two")] }])
          expect(result.versions.get(stream)).toBe(2)
          const facts = yield* ledger.readStream(stream)
          expect(facts.map((f) => [f.type, f.metadata.position, f.metadata.stream])).toEqual([
            ["one", 1, stream],
            ["two", 2, stream]
          ])
          expect(facts[1].metadata.global_position).toBeGreaterThan(facts[0].metadata.global_position)
          expect(yield* ledger.streamVersion(stream)).toBe(2)
          expect(yield* ledger.streamVersion(`${stream}-none`)).toBe(0)
          expect((yield* ledger.readStream(stream, { from: 2 })).map((f) => f.type)).toEqual(["two"])
          expect((yield* ledger.readStream(stream, { from: 1, limit: 1 })).map((f) => f.type)).toEqual(["one"])
        })
      ))

    it("keeps data and metadata as written", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const stream = `${prefix()}a`
          const written: NewFact = {
            ...fact("detailed", { nested: { list: [1, "two", null, true] }, text: "ünïcödé ✓" }, "corr"),
            metadata: {
              correlation_id: "corr",
              causation_id: "cause",
              at: "2026-11-30T12:00:00.000Z",
              by: "key:build-bot",
              run_id: "run",
              definition: { type: "computation", name: "total", version: 3 },
              call_depth: 1
            }
          }
          yield* ledger.append([{ stream, expected: 0, facts: [written] }])
          const [read] = yield* ledger.readStream(stream)
          expect(read.id).toBe(written.id)
          expect(read.data).toEqual(written.data)
          expect(read.metadata).toMatchObject(written.metadata)
          const byId = yield* ledger.readFact(written.id)
          expect(Option.getOrThrow(byId).fact).toEqual(read)
          expect(Option.isNone(yield* ledger.readFact("no-such-fact"))).toBe(true)
        })
      ))

    it("refuses an append at the wrong version and records nothing", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const stream = `${prefix()}a`
          yield* ledger.append([{ stream, expected: 0, facts: [fact("one")] }])
          const stale = yield* Effect.either(ledger.append([{ stream, expected: 0, facts: [fact("two")] }]))
          expect(Either.isLeft(stale) && stale.left._tag).toBe("VersionConflict")
          const ahead = yield* Effect.either(ledger.append([{ stream, expected: 5, facts: [fact("two")] }]))
          expect(Either.isLeft(ahead) && ahead.left._tag).toBe("VersionConflict")
          expect(yield* ledger.streamVersion(stream)).toBe(1)
          yield* ledger.append([{ stream, expected: "any", facts: [fact("three")] }])
          expect(yield* ledger.streamVersion(stream)).toBe(2)
        })
      ))

    it("appends to several streams atomically: one conflict records nothing anywhere", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const base = prefix()
          yield* ledger.append([{ stream: `${base}b`, expected: 0, facts: [fact("one")] }])
          const refused = yield* Effect.either(
            ledger.append([
              { stream: `${base}a`, expected: 0, facts: [fact("one")] },
              { stream: `${base}b`, expected: 0, facts: [fact("two")] }
            ])
          )
          expect(Either.isLeft(refused)).toBe(true)
          expect(yield* ledger.streamVersion(`${base}a`)).toBe(0)
          expect(yield* ledger.streamVersion(`${base}b`)).toBe(1)
          const both = yield* ledger.append([
            { stream: `${base}a`, expected: 0, facts: [fact("one")] },
            { stream: `${base}b`, expected: 1, facts: [fact("two")] }
          ])
          expect(both.facts.length).toBe(2)
          expect(both.versions.get(`${base}b`)).toBe(2)
        })
      ))

    it("refuses a fact id the ledger already holds", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const base = prefix()
          const first = fact("one")
          yield* ledger.append([{ stream: `${base}a`, expected: 0, facts: [first] }])
          const again = yield* Effect.either(ledger.append([{ stream: `${base}b`, expected: 0, facts: [first] }]))
          expect(Either.isLeft(again)).toBe(true)
          expect(yield* ledger.streamVersion(`${base}b`)).toBe(0)
        })
      ))

    it("reads in global order forward and backward, in pages, with filters", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const base = prefix()
          for (let index = 0; index < 7; index++)
            yield* ledger.append([
              {
                stream: `${base}${index % 2 === 0 ? "even" : "odd"}`,
                expected: "any",
                facts: [fact(index % 3 === 0 ? "third" : "other", { index }, index < 4 ? "early" : "late")]
              }
            ])
          const forward = yield* readAllOf(base)
          expect(forward.map((p) => (p.fact.data as { index: number }).index)).toEqual([0, 1, 2, 3, 4, 5, 6])
          const backward = yield* readAllOf(base, "backward")
          expect(backward.map((p) => (p.fact.data as { index: number }).index)).toEqual([6, 5, 4, 3, 2, 1, 0])
          const pages: Array<number> = []
          let from: string | undefined
          for (;;) {
            const page: ReadonlyArray<PositionedFact> = yield* ledger.readAll({
              direction: "forward",
              limit: 3,
              filter: { streamPrefix: base },
              ...(from === undefined ? {} : { from })
            })
            if (page.length === 0) break
            pages.push(...page.map((p) => (p.fact.data as { index: number }).index))
            from = page[page.length - 1].position
          }
          expect(pages).toEqual([0, 1, 2, 3, 4, 5, 6])
          const before = yield* ledger.readAll({
            direction: "backward",
            limit: 2,
            from: forward[4].position,
            filter: { streamPrefix: base }
          })
          expect(before.map((p) => (p.fact.data as { index: number }).index)).toEqual([3, 2])
          const thirds = yield* ledger.readAll({
            direction: "forward",
            limit: 100,
            filter: { streamPrefix: base, types: ["third"] }
          })
          expect(thirds.map((p) => (p.fact.data as { index: number }).index)).toEqual([0, 3, 6])
          const late = yield* ledger.readAll({
            direction: "forward",
            limit: 100,
            filter: { streamPrefix: `${base}odd`, correlationId: "late" }
          })
          expect(late.map((p) => (p.fact.data as { index: number }).index)).toEqual([5])
        })
      ))

    it("lets exactly one of many concurrent appenders at one version through", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const stream = `${prefix()}contended`
          const outcomes = yield* Effect.forEach(
            Array.from({ length: concurrency }, (_, index) => index),
            (index) => Effect.either(ledger.append([{ stream, expected: 0, facts: [fact("racer", { index })] }])),
            { concurrency: "unbounded" }
          )
          expect(outcomes.filter(Either.isRight).length).toBe(1)
          expect(yield* ledger.streamVersion(stream)).toBe(1)
        })
      ))

    it("keeps positions contiguous when concurrent appenders retry on conflicts", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const stream = `${prefix()}retried`
          const appendOne = (index: number): Effect.Effect<void, unknown> =>
            Effect.flatMap(ledger.streamVersion(stream), (version) =>
              ledger.append([{ stream, expected: version, facts: [fact("retried", { index })] }])
            ).pipe(
              Effect.catchTag("VersionConflict", () => appendOne(index)),
              Effect.asVoid
            )
          yield* Effect.forEach(
            Array.from({ length: concurrency * 3 }, (_, index) => index),
            appendOne,
            { concurrency }
          )
          const facts = yield* ledger.readStream(stream)
          expect(facts.map((f) => f.metadata.position)).toEqual(facts.map((_, index) => index + 1))
          expect(new Set(facts.map((f) => (f.data as { index: number }).index)).size).toBe(concurrency * 3)
        })
      ))

    it("never lets a reader of the global order skip a fact that committed late", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const base = prefix()
          const perWriter = 25
          const total = concurrency * perWriter
          const seen: Array<PositionedFact> = []
          const reader = yield* Effect.fork(
            Effect.gen(function* () {
              let from: string | undefined
              while (seen.length < total) {
                const page = yield* ledger.readAll({
                  direction: "forward",
                  limit: 7,
                  filter: { streamPrefix: base },
                  ...(from === undefined ? {} : { from })
                })
                if (page.length === 0) yield* Effect.sleep("2 millis")
                else {
                  seen.push(...page)
                  from = page[page.length - 1].position
                }
              }
            })
          )
          yield* Effect.forEach(
            Array.from({ length: concurrency }, (_, writer) => writer),
            (writer) =>
              Effect.forEach(
                Array.from({ length: perWriter }, (_, index) => index),
                (index) =>
                  ledger.append([
                    {
                      stream: `${base}writer-${writer}-${index % 3}`,
                      expected: "any",
                      facts: [fact("written", { writer, index })]
                    }
                  ]),
                { discard: true }
              ),
            { concurrency: "unbounded", discard: true }
          )
          yield* Fiber.join(reader).pipe(Effect.timeout("20 seconds"))
          const all = yield* readAllOf(base)
          expect(seen.length).toBe(total)
          expect(seen.map((p) => p.fact.id)).toEqual(all.map((p) => p.fact.id))
          expect(new Set(seen.map((p) => p.fact.id)).size).toBe(total)
        })
      ))

    it("folds facts into views in the same append, lists them in pages, and rebuilds them", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const views = yield* Views
          const base = prefix()
          const partition = base
          for (let stream = 0; stream < 5; stream++)
            yield* ledger.append([
              {
                stream: `${base}s${stream}`,
                expected: 0,
                facts: Array.from({ length: stream + 1 }, () => counted(partition))
              }
            ])
          const doc = yield* views.get({ view: counterView, partition, id: `${base}s3` })
          expect(Option.getOrThrow(doc).data).toMatchObject({ count: 4 })
          const ascending = yield* views.list(counterView, partition, { direction: "ascending", limit: 3 })
          expect(ascending.map((d) => (d.data as { count: number }).count)).toEqual([1, 2, 3])
          const next = yield* views.list(counterView, partition, {
            direction: "ascending",
            limit: 3,
            after: { sort: ascending[2].sort, id: ascending[2].id }
          })
          expect(next.map((d) => (d.data as { count: number }).count)).toEqual([4, 5])
          const descending = yield* views.list(counterView, partition, { direction: "descending", limit: 2 })
          expect(descending.map((d) => (d.data as { count: number }).count)).toEqual([5, 4])
          yield* ledger.append([{ stream: `${base}s0`, expected: 1, facts: [fact("uncounted", { partition })] }])
          expect(Option.isNone(yield* views.get({ view: counterView, partition, id: `${base}s0` }))).toBe(true)
          const before = yield* views.list(counterView, partition, { direction: "ascending", limit: 100 })
          yield* views.rebuild
          const after = yield* views.list(counterView, partition, { direction: "ascending", limit: 100 })
          expect(after).toEqual(before)
          expect(yield* views.list(counterView, `${base}none`, { direction: "ascending", limit: 10 })).toEqual([])
        })
      ))

    it("lists each partition in (sort, id) order apart from the others, as documents move, come and go", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const views = yield* Views
          const base = prefix()
          const partitions = [base, `${base}x`]
          const counts = new Map<string, Map<string, number>>(partitions.map((partition) => [partition, new Map()]))
          const count = (partition: string, stream: string, times: number) =>
            Effect.gen(function* () {
              yield* ledger.append([
                { stream, expected: "any", facts: Array.from({ length: times }, () => counted(partition)) }
              ])
              const kept = counts.get(partition)!
              kept.set(stream, (kept.get(stream) ?? 0) + times)
            })
          for (const [index, times] of [2, 1, 2, 3, 1, 2].entries())
            for (const partition of partitions) yield* count(partition, `${partition}/s${index}`, times)
          yield* count(base, `${base}/s1`, 3)
          yield* ledger.append([
            { stream: `${base}/s3`, expected: "any", facts: [fact("uncounted", { partition: base })] }
          ])
          counts.get(base)!.delete(`${base}/s3`)
          const placeOf = (id: string, total: number) => ({ sort: String(total).padStart(8, "0"), id })
          const compare = (a: { sort: string; id: string }, b: { sort: string; id: string }) =>
            a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
          for (const partition of partitions) {
            const expected = [...counts.get(partition)!].map(([id, total]) => placeOf(id, total)).sort(compare)
            const placesOf = (docs: ReadonlyArray<{ sort: string; id: string }>) =>
              docs.map(({ sort, id }) => ({ sort, id }))
            for (const direction of ["ascending", "descending"] as const) {
              const ordered = direction === "ascending" ? expected : [...expected].reverse()
              expect(placesOf(yield* views.list(counterView, partition, { direction, limit: 100 }))).toEqual(ordered)
              const paged: Array<{ sort: string; id: string }> = []
              for (;;) {
                const last = paged[paged.length - 1]
                const page = yield* views.list(counterView, partition, {
                  direction,
                  limit: 2,
                  ...(last === undefined ? {} : { after: last })
                })
                if (page.length === 0) break
                paged.push(...placesOf(page))
              }
              expect(paged).toEqual(ordered)
              const between = placeOf(`${partition}/s2x`, 2)
              expect(
                placesOf(yield* views.list(counterView, partition, { direction, limit: 100, after: between }))
              ).toEqual(ordered.filter((place) => (direction === "ascending" ? 1 : -1) * compare(place, between) > 0))
            }
          }
        })
      ))

    it("leaves the views untouched when an append is refused", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const views = yield* Views
          const base = prefix()
          yield* ledger.append([{ stream: `${base}s`, expected: 0, facts: [counted(base)] }])
          yield* Effect.either(ledger.append([{ stream: `${base}s`, expected: 0, facts: [counted(base)] }]))
          const doc = yield* views.get({ view: counterView, partition: base, id: `${base}s` })
          expect(Option.getOrThrow(doc).data).toMatchObject({ count: 1 })
        })
      ))

    it("names the refused append: its stream, the version it expected and the version the stream is at", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const base = prefix()
          yield* ledger.append([{ stream: `${base}b`, expected: 0, facts: [fact("one")] }])
          const refused = yield* Effect.flip(
            ledger.append([
              { stream: `${base}a`, expected: 0, facts: [fact("one")] },
              { stream: `${base}b`, expected: 0, facts: [fact("two")] }
            ])
          )
          expect(refused).toMatchObject({ _tag: "VersionConflict", stream: `${base}b`, expected: 0, actual: 1 })
          const taken = fact("taken")
          yield* ledger.append([{ stream: `${base}c`, expected: 0, facts: [taken] }])
          const again = yield* Effect.flip(
            ledger.append([
              { stream: `${base}a`, expected: 0, facts: [fact("one")] },
              { stream: `${base}b`, expected: 1, facts: [taken] }
            ])
          )
          expect(again).toMatchObject({ _tag: "VersionConflict", stream: `${base}b`, expected: 1, actual: 1 })
          expect(yield* ledger.streamVersion(`${base}a`)).toBe(0)
        })
      ))

    it("refuses a fact id repeated within one append and records nothing", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const base = prefix()
          const twice = fact("twice")
          const refused = yield* Effect.either(
            ledger.append([
              { stream: `${base}a`, expected: 0, facts: [fact("one")] },
              { stream: `${base}b`, expected: 0, facts: [twice, twice] }
            ])
          )
          expect(Either.isLeft(refused) && refused.left._tag).toBe("VersionConflict")
          expect(yield* ledger.streamVersion(`${base}a`)).toBe(0)
          expect(yield* ledger.streamVersion(`${base}b`)).toBe(0)
          expect(Option.isNone(yield* ledger.readFact(twice.id))).toBe(true)
        })
      ))

    it("returns the facts as it placed them: positions after each stream's version, global positions as read", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const base = prefix()
          yield* ledger.append([{ stream: `${base}a`, expected: 0, facts: [fact("one"), fact("two")] }])
          const result = yield* ledger.append([
            { stream: `${base}a`, expected: "any", facts: [fact("three")] },
            { stream: `${base}b`, expected: 0, facts: [fact("one"), fact("two")] },
            { stream: `${base}a`, expected: "any", facts: [fact("four")] }
          ])
          expect(result.facts.map((f) => [f.metadata.stream, f.metadata.position])).toEqual([
            [`${base}a`, 3],
            [`${base}b`, 1],
            [`${base}b`, 2],
            [`${base}a`, 4]
          ])
          expect(Object.fromEntries(result.versions)).toEqual({ [`${base}a`]: 4, [`${base}b`]: 2 })
          const globals = result.facts.map((f) => f.metadata.global_position)
          expect(globals).toEqual([...globals].sort((x, y) => x - y))
          expect(new Set(globals).size).toBe(globals.length)
          for (const placed of result.facts)
            expect(Option.getOrThrow(yield* ledger.readFact(placed.id)).fact).toEqual(placed)
        })
      ))

    /** Appends `facts` to `stream` while subscribed, and the first wake-up that names the stream. */
    const wakeupOfAppend = (stream: string, facts: ReadonlyArray<NewFact>, options?: AppendOptions) =>
      Effect.gen(function* () {
        const ledger = yield* Ledger
        const waiter = yield* Effect.fork(
          ledger.wakeups.pipe(
            Stream.filter((wakeup) => wakeup.streams.includes(stream)),
            Stream.take(1),
            Stream.runCollect
          )
        )
        yield* Effect.sleep("100 millis")
        yield* ledger.append([{ stream, expected: 0, facts }], options)
        return Chunk.unsafeHead(yield* Fiber.join(waiter).pipe(Effect.timeout("10 seconds")))
      })

    it("wakes subscribers after an append", () =>
      run(
        Effect.gen(function* () {
          const stream = `${prefix()}woken`
          expect((yield* wakeupOfAppend(stream, [fact("wake")])).streams).toContain(stream)
        })
      ))

    it("says in a wake-up which fact types were appended, and the appender's origin", () =>
      run(
        Effect.gen(function* () {
          const woken = yield* wakeupOfAppend(`${prefix()}tagged`, [fact("first"), fact("second"), fact("first")], {
            origin: "conformance"
          })
          expect([...(woken.types ?? [])].sort()).toEqual(["first", "second"])
          expect(woken.origin).toBe("conformance")
        })
      ))

    it("reads a prefix's facts in global order apart from its neighbours', from a position of any fact", () =>
      run(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const org = uuidv7(Date.now(), crypto.getRandomValues(new Uint8Array(10)))
          const chain = `chain-${org}`
          const streams = [
            `playbook/${org}/a/runs/1`,
            `playbook/${org}/ab/runs/1`,
            `playbook/${org}/a/events`,
            `playbook/${org}/a`,
            `playbook/${org}/a_/runs/1`,
            `playbook/${org}/a%/runs/1`,
            `org/${org}/playbooks`,
            `org/${org}x/playbooks`,
            `org/${org}`
          ]
          const written: Array<{
            readonly id: string
            readonly stream: string
            readonly type: string
            readonly chained: boolean
          }> = []
          for (let index = 0; index < streams.length * 3; index++) {
            const stream = streams[(index * 4) % streams.length]
            const chained = index % 3 === 0
            const placed = fact(index % 2 === 0 ? "kept" : "passed", { index }, chained ? chain : null)
            yield* ledger.append([{ stream, expected: "any", facts: [placed] }])
            written.push({ id: placed.id, stream, type: placed.type, chained })
          }
          const last = written[written.length - 1]
          yield* ledger
            .readAll({ direction: "backward", limit: 1, filter: { streamPrefix: last.stream } })
            .pipe(Effect.repeat({ until: (page) => page[0]?.fact.id === last.id }), Effect.timeout("10 seconds"))
          const positions = new Map<string, string>()
          for (const { id } of written) positions.set(id, Option.getOrThrow(yield* ledger.readFact(id)).position)
          const filters: ReadonlyArray<GlobalFilter> = [
            { streamPrefix: `playbook/${org}/a/` },
            { streamPrefix: `playbook/${org}/a` },
            { streamPrefix: `playbook/${org}/a/runs/` },
            { streamPrefix: `playbook/${org}/a_/` },
            { streamPrefix: `playbook/${org}/a_/r` },
            { streamPrefix: `playbook/${org}/a_` },
            { streamPrefix: `playbook/${org}/a%/` },
            { streamPrefix: `playbook/${org}/` },
            { streamPrefix: `org/${org}/` },
            { streamPrefix: `org/${org}` },
            { streamPrefix: `playbook/${org}/a/`, types: ["kept"] },
            { streamPrefix: `playbook/${org}/a/`, correlationId: chain },
            { streamPrefix: `org/${org}`, correlationId: chain, types: ["passed"] },
            { correlationId: chain }
          ]
          const ids = (page: ReadonlyArray<PositionedFact>) => page.map((positioned) => positioned.fact.id)
          for (const filter of filters) {
            const kept = written
              .filter(
                (entry) =>
                  (filter.streamPrefix === undefined || entry.stream.startsWith(filter.streamPrefix)) &&
                  (filter.types === undefined || filter.types.includes(entry.type)) &&
                  (filter.correlationId === undefined || entry.chained)
              )
              .map((entry) => entry.id)
            expect(kept.length).toBeGreaterThan(0)
            expect(ids(yield* ledger.readAll({ direction: "forward", limit: 100, filter }))).toEqual(kept)
            expect(ids(yield* ledger.readAll({ direction: "backward", limit: 100, filter }))).toEqual(
              [...kept].reverse()
            )
            for (const [index, entry] of written.entries()) {
              const from = positions.get(entry.id)!
              const after = written.slice(index + 1).filter((later) => kept.includes(later.id))
              const before = written.slice(0, index).filter((earlier) => kept.includes(earlier.id))
              expect(ids(yield* ledger.readAll({ direction: "forward", from, limit: 100, filter }))).toEqual(
                after.map((later) => later.id)
              )
              expect(ids(yield* ledger.readAll({ direction: "backward", from, limit: 2, filter }))).toEqual(
                before
                  .slice(-2)
                  .reverse()
                  .map((earlier) => earlier.id)
              )
            }
          }
        })
      ))
  })

  describe(`Ledger conformance: ${name}, projections of where facts land`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<Ledger | Views, unknown>
    beforeAll(() => {
      runtime = ManagedRuntime.make(
        store.pipe(Layer.provide(Layer.succeed(Projections, [counterProjection, placementProjection])))
      )
    })
    afterAll(() => runtime.dispose())
    const placed = (partition: string): NewFact => ({
      id: uuidv7(Date.now(), crypto.getRandomValues(new Uint8Array(10))),
      type: "placed",
      data: { partition },
      metadata: { correlation_id: null, causation_id: null, at: new Date().toISOString(), by: "conformance" }
    })

    it("folds facts as placed (positions of 'any' appends, global positions), as a rebuild does", () =>
      runtime.runPromise(
        Effect.gen(function* () {
          const ledger = yield* Ledger
          const views = yield* Views
          const partition = `conformance/${uuidv7(Date.now(), crypto.getRandomValues(new Uint8Array(10)))}`
          const stream = `${partition}/s`
          yield* ledger.append([{ stream, expected: 0, facts: [placed(partition)] }])
          const result = yield* ledger.append([
            { stream, expected: "any", facts: [placed(partition), placed(partition)] }
          ])
          const docs = yield* views.list(placementView, partition, { direction: "ascending", limit: 10 })
          expect(docs.map((doc) => doc.id)).toEqual([`${stream}@1`, `${stream}@2`, `${stream}@3`])
          expect(docs[2].data).toEqual({ global_position: result.facts[1].metadata.global_position })
          yield* views.rebuild
          expect(yield* views.list(placementView, partition, { direction: "ascending", limit: 10 })).toEqual(docs)
        })
      ))

    it("ends a held wake-up subscription when the store's scope closes", () =>
      Effect.runPromise(
        Effect.gen(function* () {
          const scope = yield* Scope.make()
          const context = yield* Layer.buildWithScope(
            store.pipe(Layer.provide(Layer.succeed(Projections, [counterProjection]))),
            scope
          )
          const held = yield* Effect.fork(Stream.runDrain(Context.get(context, Ledger).wakeups))
          yield* Effect.sleep("50 millis")
          yield* Scope.close(scope, Exit.void)
          const ended = yield* Fiber.await(held).pipe(Effect.timeout("5 seconds"))
          expect(Exit.isSuccess(ended)).toBe(true)
        })
      ))
  })
}

/** The view of `placementProjection`. */
const placementView = "conformance_placements"

/**
 * A projection keyed by where a fact lands: one document per position of its stream, holding the fact's global
 * position. A store must fold facts with the positions and global positions they are read back with.
 */
const placementProjection: Projection = {
  view: placementView,
  types: ["placed"],
  keys: (fact) => [
    {
      view: placementView,
      partition: (fact.data as { partition: string }).partition,
      id: `${fact.metadata.stream}@${fact.metadata.position}`
    }
  ],
  apply: (_current, fact, key) => ({
    id: key.id,
    sort: key.id,
    data: { global_position: fact.metadata.global_position }
  })
}
