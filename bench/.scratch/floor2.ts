import { makeWorkload } from "../ledger/workload.ts"

const w = makeWorkload("single", 1000, 5, 1)
const time = (name: string, f: () => void) => {
  for (let i = 0; i < 4; i++) {
    const t = performance.now()
    f()
    const s = (performance.now() - t) / 1000
    console.log(name, Math.round(w.facts / s))
  }
}
time("push only", () => {
  const a: any[] = []
  for (const ap of w.appends) for (const f of ap.facts) a.push(f)
})
time("spread", () => {
  const a: any[] = []
  for (const ap of w.appends) for (const f of ap.facts) a.push({ ...f, metadata: { ...f.metadata, stream: ap.stream } })
})
time("map id", () => {
  const m = new Map()
  for (const ap of w.appends) for (const f of ap.facts) m.set(f.id, f)
})
time("map stream", () => {
  const m = new Map()
  for (const ap of w.appends) m.set(ap.stream, 1)
})
