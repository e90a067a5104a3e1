import { Effect } from "effect"
import { memoryFloor } from "../ledger/memoryFloor.ts"
import { makeWorkload } from "../ledger/workload.ts"

const w = makeWorkload("single", 1000, 5, 1)
for (let i = 0; i < 5; i++) {
  const f = memoryFloor()
  const t = performance.now()
  Effect.runSync(f.append(w, 1))
  const s = (performance.now() - t) / 1000
  console.log(Math.round(w.facts / s))
}
