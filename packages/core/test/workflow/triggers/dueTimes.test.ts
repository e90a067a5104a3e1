import { describe, expect, it } from "vitest"
import { dueTimesWithin, nextDueAfter } from "../../../src/workflow/triggers/dueTimes.js"

const at = (text: string) => Date.parse(text)
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString())

describe("schedule due times", () => {
  it("every: the multiples of the period counted from the activation", () => {
    const every = { kind: "every", reference: "/schedule/every", milliseconds: 30 * 60_000 } as const
    const anchor = at("2026-05-04T08:10:00Z")
    expect(iso(nextDueAfter(every, anchor, anchor))).toBe("2026-05-04T08:40:00.000Z")
    expect(iso(nextDueAfter(every, anchor, at("2026-05-04T08:40:00Z")))).toBe("2026-05-04T09:10:00.000Z")
    expect(dueTimesWithin(every, anchor, anchor, at("2026-05-04T10:45:00Z"))).toEqual({
      latest: at("2026-05-04T10:40:00Z"),
      count: 5
    })
    expect(dueTimesWithin(every, anchor, anchor, at("2026-05-04T08:39:59Z"))).toBeUndefined()
  })

  it("cron: UTC without a zone; a day matching either restricted day field is due", () => {
    const cron = { kind: "cron", reference: "/schedule/cron", expression: "0 7 1 * 1" } as const
    expect(iso(nextDueAfter(cron, 0, at("2026-06-01T07:00:00Z")))).toBe("2026-06-08T07:00:00.000Z")
    expect(iso(nextDueAfter(cron, 0, at("2026-06-29T08:00:00Z")))).toBe("2026-07-01T07:00:00.000Z")
  })

  it("cron in a time zone: local times, a time the spring gap skips is not due, a repeated time is due once", () => {
    const paris = {
      kind: "cron",
      reference: "/schedule/cron",
      expression: "30 2 * * *",
      time_zone: "Europe/Paris"
    } as const
    const spring = [at("2026-03-27T00:00:00Z")]
    for (let i = 0; i < 3; i++) spring.push(nextDueAfter(paris, 0, spring[spring.length - 1]!)!)
    expect(spring.slice(1).map(iso)).toEqual([
      "2026-03-27T01:30:00.000Z",
      "2026-03-28T01:30:00.000Z",
      "2026-03-30T00:30:00.000Z"
    ])
    expect(dueTimesWithin(paris, 0, at("2026-03-28T02:00:00Z"), at("2026-03-30T00:00:00Z"))).toBeUndefined()
    const autumn = [at("2026-10-24T12:00:00Z")]
    for (let i = 0; i < 2; i++) autumn.push(nextDueAfter(paris, 0, autumn[autumn.length - 1]!)!)
    expect(autumn.slice(1).map(iso)).toEqual(["2026-10-25T00:30:00.000Z", "2026-10-26T01:30:00.000Z"])
  })

  it("cron: the latest of many missed times and how many there were", () => {
    const hourly = { kind: "cron", reference: "/schedule/cron", expression: "0 * * * *" } as const
    expect(dueTimesWithin(hourly, 0, at("2026-01-01T00:00:00Z"), at("2026-01-01T05:30:00Z"))).toEqual({
      latest: at("2026-01-01T05:00:00Z"),
      count: 5
    })
  })
})
