// mlprof.ts
import { Ledger as Ledger2, ProjectionsLive } from "@runledger/core";
import { Context, Effect as Effect2, Layer as Layer2 } from "effect";

// ML_assign.ts
import {
  Ledger,
  Projections,
  projectFact,
  VersionConflict,
  Views
} from "@runledger/core";
import { Effect, Layer, Option, PubSub, Stream } from "effect";

// DocTable.ts
var docTableKey = (key) => `${key.view}\0${key.partition}\0${key.id}`;

// matchesFilter.ts
var matchesFilter = (fact, filter) => filter === void 0 || (filter.streamPrefix === void 0 || fact.metadata.stream.startsWith(filter.streamPrefix)) && (filter.types === void 0 || filter.types.includes(fact.type)) && (filter.correlationId === void 0 || fact.metadata.correlation_id === filter.correlationId);

// ML_assign.ts
var layer = Layer.unwrapEffect(
  Effect.gen(function* () {
    const projections = yield* Projections;
    const pubsub = yield* PubSub.unbounded();
    const state = { facts: [], streams: /* @__PURE__ */ new Map(), byId: /* @__PURE__ */ new Map(), views: /* @__PURE__ */ new Map() };
    const fold = (table, facts) => {
      for (const fact of facts)
        projectFact(
          projections,
          fact,
          (key) => table.get(docTableKey(key)),
          (key, doc) => {
            if (doc === void 0) table.delete(docTableKey(key));
            else table.set(docTableKey(key), doc);
          }
        );
    };
    const append = (appends) => Effect.suspend(() => {
      for (const { stream, expected } of appends) {
        const actual = state.streams.get(stream)?.length ?? 0;
        if (expected !== "any" && expected !== actual)
          return Effect.fail(new VersionConflict({ stream, expected, actual }));
      }
      const ids = /* @__PURE__ */ new Set();
      for (const { stream, expected, facts } of appends)
        for (const fact of facts) {
          if (state.byId.has(fact.id) || ids.has(fact.id))
            return Effect.fail(
              new VersionConflict({ stream, expected, actual: state.streams.get(stream)?.length ?? 0 })
            );
          ids.add(fact.id);
        }
      const placed = [];
      const versions = /* @__PURE__ */ new Map();
      for (const { stream, facts } of appends) {
        const existing = state.streams.get(stream) ?? [];
        for (const fact of facts) {
          const full = {
            id: fact.id,
            type: fact.type,
            data: fact.data,
            metadata: Object.assign({}, fact.metadata, {
              stream,
              position: existing.length + 1,
              global_position: state.facts.length + placed.length + 1
            })
          };
          existing.push(full);
          placed.push(full);
        }
        state.streams.set(stream, existing);
        versions.set(stream, existing.length);
      }
      for (const fact of placed) {
        state.facts.push(fact);
        state.byId.set(fact.id, fact);
      }
      fold(state.views, placed);
      const result = { versions, facts: placed };
      return Effect.as(PubSub.publish(pubsub, { streams: appends.map((entry) => entry.stream) }), result);
    });
    const readAll = (read) => Effect.sync(() => {
      const result = [];
      const bound = read.from === void 0 ? void 0 : Number(read.from);
      const forward = read.direction === "forward";
      let index = forward ? bound ?? 0 : (bound === void 0 ? state.facts.length : bound - 1) - 1;
      while (result.length < read.limit && index >= 0 && index < state.facts.length) {
        const fact = state.facts[index];
        if (matchesFilter(fact, read.filter)) result.push({ fact, position: String(fact.metadata.global_position) });
        index += forward ? 1 : -1;
      }
      return result;
    });
    const ledger = Ledger.of({
      append,
      readStream: (stream, options) => Effect.sync(() => {
        const facts = state.streams.get(stream) ?? [];
        const from = Math.max(1, options?.from ?? 1) - 1;
        return facts.slice(from, options?.limit === void 0 ? void 0 : from + options.limit);
      }),
      streamVersion: (stream) => Effect.sync(() => state.streams.get(stream)?.length ?? 0),
      readAll,
      readFact: (id) => Effect.sync(
        () => Option.map(Option.fromNullable(state.byId.get(id)), (fact) => ({
          fact,
          position: String(fact.metadata.global_position)
        }))
      ),
      wakeups: Stream.fromPubSub(pubsub)
    });
    const views = Views.of({
      get: (key) => Effect.sync(() => Option.fromNullable(state.views.get(docTableKey(key)))),
      list: (view, partition, listing) => Effect.sync(() => {
        const prefix = docTableKey({ view, partition, id: "" });
        const docs = [...state.views.entries()].filter(([key]) => key.startsWith(prefix)).map(([, doc]) => doc);
        const sign = listing.direction === "ascending" ? 1 : -1;
        const compare = (a, b) => sign * (a.sort < b.sort ? -1 : a.sort > b.sort ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
        const after = listing.after;
        return docs.filter((doc) => after === void 0 || compare(doc, after) > 0).sort(compare).slice(0, listing.limit);
      }),
      rebuild: Effect.sync(() => {
        const table = /* @__PURE__ */ new Map();
        fold(table, state.facts);
        state.views = table;
      })
    });
    return Layer.mergeAll(Layer.succeed(Ledger, ledger), Layer.succeed(Views, views));
  })
);

// ../ledger/workload.ts
import { randomBytes } from "node:crypto";
import { uuidv7 } from "@runledger/core";
var factTypes = ["step_started", "tool_called", "tool_returned", "step_completed", "note_recorded"];
var makeFact = (runId, index, at) => {
  const id = uuidv7(at, randomBytes(10));
  const type = factTypes[index % factTypes.length];
  return {
    id,
    type,
    data: {
      step: `step-${index}`,
      tool: "http.request",
      input: { method: "POST", url: `https://api.example.com/v1/orders/${index}`, attempt: 1 },
      output: { status: 200, items: index % 7, total_cents: 1999 + index },
      duration_ms: 12 + index % 50
    },
    metadata: {
      correlation_id: runId,
      causation_id: index === 0 ? null : runId,
      at: new Date(at).toISOString(),
      by: "agent:order-assistant",
      run_id: runId,
      definition: { type: "playbook", name: "orders", version: 3 },
      trace_id: randomBytes(16).toString("hex"),
      span_id: randomBytes(8).toString("hex")
    }
  };
};
var makeWorkload = (label, streams, appendsPerStream, batchSize) => {
  const runs = Array.from({ length: streams }, () => uuidv7(Date.now(), randomBytes(10)));
  const appends = [];
  const start = Date.now();
  for (let round = 0; round < appendsPerStream; round++)
    for (let s = 0; s < streams; s++) {
      const stream = `org/bench/runs/${label}-${runs[s]}`;
      const facts = Array.from(
        { length: batchSize },
        (_, i) => makeFact(runs[s], round * batchSize + i, start + appends.length)
      );
      appends.push({ stream, expected: round * batchSize, facts });
    }
  return { label, batchSize, appends, facts: streams * appendsPerStream * batchSize };
};

// mlprof.ts
var w = makeWorkload("single", 1e3, 20, 1);
for (let r = 0; r < 4; r++)
  await Effect2.runPromise(Effect2.scoped(Effect2.gen(function* () {
    const ledger = Context.get(yield* Layer2.build(layer.pipe(Layer2.provide(ProjectionsLive))), Ledger2);
    yield* Effect2.forEach(w.appends, (a) => ledger.append([a]), { discard: true });
  })));
