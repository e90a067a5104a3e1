const mk = (i) => ({ correlation_id: "r"+i, causation_id: i ? "r" : null, at: "2026", by: "agent", run_id: "r"+i, definition: { type: "p", name: "o", version: 3 }, trace_id: "t"+i, span_id: "s"+i })
const mds = Array.from({ length: 50000 }, (_, i) => mk(i))
const sink = []
const time = (name, f) => { const r = []; for (let i = 0; i < 7; i++) { const t = performance.now(); f(); r.push(Math.round(mds.length / ((performance.now() - t) / 1000))) } console.log(name, r.join(" ")) }
time("spread+3", () => { for (const m of mds) sink.push({ ...m, stream: "x", position: 1, global_position: 2 }) })
time("spread+1", () => { for (const m of mds) sink.push({ ...m, stream: "x" }) })
time("assign+3", () => { for (const m of mds) sink.push(Object.assign({}, m, { stream: "x", position: 1, global_position: 2 })) })
time("literal", () => { for (const m of mds) sink.push({ correlation_id: m.correlation_id, causation_id: m.causation_id, at: m.at, by: m.by, run_id: m.run_id, definition: m.definition, trace_id: m.trace_id, span_id: m.span_id, stream: "x", position: 1, global_position: 2 }) })
const x = sink.at(-1); const y = {...mds[0], stream: "x", position: 1, global_position: 2}
console.log(%HasFastProperties(y), %HasFastProperties(mds[0]))
