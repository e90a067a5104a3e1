import { Effect } from "effect"
import { memoryFloor } from "../ledger/memoryFloor.ts"
import { makeWorkload } from "../ledger/workload.ts"

const w = makeWorkload("single", 1000, 5, 1)
for (let i = 0; i < 5; i++) {
  const f = memoryFloor()
  const t = performance.now()
  Effect.runSync(f.append(w, 1))
  const t2 = performance.now()
  const s = (t2 - t) / 1000
  const t3 = performance.now()
  const a: any[] = []
  const m = new Map()
  const v = new Map()
  for (const ap of w.appends) {
    let ver = v.get(ap.stream) ?? 0
    for (const f of ap.facts) {
      ver++
      const p = { ...f, metadata: { ...f.metadata, stream: ap.stream, position: ver, global_position: a.length + 1 } }
      a.push(p)
      m.set(p.id, p)
    }
    v.set(ap.stream, ver)
  }
  const s2 = (performance.now() - t3) / 1000
  console.log(Math.round(w.facts / s), Math.round(w.facts / s2))
}
