import { makeWorkload } from "../ledger/workload.ts"

const w = makeWorkload("single", 1000, 5, 1)
const facts = w.appends.map((a) => a.facts[0]!)
const time = (name: string, f: () => void) => {
  const r: number[] = []
  for (let i = 0; i < 7; i++) {
    const t = performance.now()
    f()
    r.push(Math.round(w.facts / ((performance.now() - t) / 1000)))
  }
  console.log(name, r.join(" "))
}
const sink: any[] = []
time("spread md only", () => {
  for (const f of facts) sink.push({ ...f.metadata })
})
time("spread md + stream", () => {
  for (const f of facts) sink.push({ ...f.metadata, stream: "x" })
})
time("spread md + 3", () => {
  for (const f of facts) sink.push({ ...f.metadata, stream: "x", position: 1, global_position: 2 })
})
time("spread fact", () => {
  for (const f of facts) sink.push({ ...f })
})
time("Object.assign md", () => {
  for (const f of facts) sink.push(Object.assign({}, f.metadata, { stream: "x", position: 1, global_position: 2 }))
})
time("nothing", () => {
  for (const f of facts) sink.push(f)
})
console.log(sink.length)
