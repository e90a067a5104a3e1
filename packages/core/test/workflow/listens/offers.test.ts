import { describe, expect, it } from "vitest"
import type { Fact } from "../../../src/domain/Fact.js"
import { firstListens, maxListeningTasks } from "../../../src/workflow/listens/listeningTasks.js"
import { offersOf } from "../../../src/workflow/listens/offerPlaybookFacts.js"
import type { WorkflowListening } from "../../../src/workflow/run/workflowListensProjection.js"
import { eventOfFact } from "../../../src/workflow/triggers/eventOfFact.js"

/** A listening run `n` whose one listen opened at global position `since`, hearing `types`. */
const runOf = (n: number, since: number, types = ["run_succeeded"]): WorkflowListening => ({
  stream: `playbook/o/p/runs/r${n}`,
  run_id: `r${n}`,
  listens: { [`r${n} /do/0/hear 1`]: { types, since, since_id: `f${since}` } }
})

/** A fact of `type` at global position `at`, about run `runId` if given. */
const factOf = (type: string, at: number, runId?: string) =>
  ({
    id: `f${at}`,
    type,
    data: {},
    metadata: { stream: "playbook/o/p/runs/x", global_position: at, ...(runId === undefined ? {} : { run_id: runId }) }
  }) as unknown as Fact

describe("which listens a playbook fact is offered to (§8.1, ADR 0295)", () => {
  it("only the first 4,096 listens to open hear playbook events", () => {
    const runs = Array.from({ length: maxListeningTasks + 3 }, (_, n) => runOf(n, maxListeningTasks + 3 - n))
    const heard = firstListens(runs, maxListeningTasks)
    expect(heard).toHaveLength(maxListeningTasks)
    expect(heard[0]).toMatchObject({ run_id: `r${maxListeningTasks + 2}`, since: 1 })
    expect(heard.some((task) => task.run_id === "r0" || task.run_id === "r1" || task.run_id === "r2")).toBe(false)
  })

  it("counts listens, not runs: a run's second listen takes a place of its own", () => {
    const two: WorkflowListening = {
      ...runOf(1, 1),
      listens: {
        a: { types: ["t"], since: 1, since_id: "f1" },
        b: { types: ["t"], since: 3, since_id: "f3" }
      }
    }
    expect(firstListens([two, runOf(2, 2)], 2).map((task) => task.key)).toEqual(["a", "r2 /do/0/hear 1"])
  })

  it("offers a fact to listens opened before it whose types name it, never to the run it is about", () => {
    const tasks = firstListens([runOf(1, 10), runOf(2, 20), runOf(3, 5, ["other"]), runOf(4, 1)], 10)
    const offers = offersOf(factOf("run_succeeded", 15, "r4"), "run_succeeded", tasks)
    expect([...offers]).toEqual([["playbook/o/p/runs/r1", ["r1 /do/0/hear 1"]]])
  })

  it("shows a triggered run's fact with its trigger in the data, its run as source and its definition as subject", () => {
    const fact = {
      ...factOf("run_succeeded", 7, "r9"),
      data: { output: 1 },
      metadata: {
        ...factOf("run_succeeded", 7, "r9").metadata,
        at: "2026-03-01T00:00:00.000Z",
        definition: { type: "workflow", name: "nightly", version: 2 },
        trigger: { kind: "cron", reference: "/schedule/cron" }
      }
    } as unknown as Fact
    expect(eventOfFact(fact)).toEqual({
      specversion: "1.0",
      id: "f7",
      type: "run_succeeded",
      source: "/runs/r9",
      subject: "workflow/nightly",
      time: "2026-03-01T00:00:00.000Z",
      data: { output: 1, trigger: { kind: "cron", reference: "/schedule/cron" } }
    })
  })
})
