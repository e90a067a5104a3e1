import { describe, expect, it } from "vitest"
import type { Fact } from "../../src/domain/Fact.js"
import type { DeliverySettingsShape } from "../../src/interactions/DeliverySettings.js"
import { attemptEndingDrafts, deliveryStep, nextAttemptAt } from "../../src/interactions/deliveryStep.js"
import { foldRequest, noRequest, type RequestState } from "../../src/interactions/foldRequest.js"

const settings: DeliverySettingsShape = {
  attempts: 5,
  delaysMillis: [60_000, 120_000, 240_000, 480_000],
  retryAfterCapMillis: 480_000,
  attemptMillis: 60_000,
  sweepMillis: 30_000,
  concurrency: 16
}

const requestedAt = Date.parse("2026-05-06T07:00:00.000Z")
const iso = (millis: number) => new Date(requestedAt + millis).toISOString()
const deliver = { server: "chat", tool: "send_message" }

/** The facts of one run's stream, numbered from 1, each `millis` after the request. */
const streamOf = (facts: ReadonlyArray<readonly [type: string, data: unknown, millis: number]>): RequestState =>
  facts
    .map(
      ([type, data, millis], index): Fact => ({
        id: `f${index + 1}`,
        type,
        data,
        metadata: {
          stream: "playbook/o/p/runs/r",
          position: index + 1,
          global_position: index + 1,
          correlation_id: "r",
          causation_id: null,
          at: iso(millis),
          by: "local",
          run_id: "r",
          definition: { type: "interaction", name: "ask", version: 1 }
        }
      })
    )
    .reduce(foldRequest, noRequest)

/** A request through the chat tool (a question, or a notification), and the facts after it. */
const request = (
  after: ReadonlyArray<readonly [string, unknown, number]> = [],
  takesAnswer = true,
  delivery: unknown = deliver
) =>
  streamOf([
    [
      "run_started",
      {
        input: {},
        input_sha256: "x",
        calls_tools: false,
        finishes_later: true,
        started_by: { id: "local", name: "local" },
        attempt: 1
      },
      0
    ],
    [
      "interaction_requested",
      { delivery, to: "room", message_bytes: 2, takes_answer: takesAnswer, expires_at: iso(86_400_000) },
      0
    ],
    [
      "run_deferred",
      {
        record: {
          to: "room",
          message: "Hi",
          answer_schema: takesAnswer ? { type: "string" } : null,
          answerer: null,
          reply: null,
          deliver: delivery,
          replies: null,
          expires_at: iso(86_400_000),
          requested_at: iso(0)
        }
      },
      0
    ],
    ...after
  ])

const started = (number: number, millis: number) =>
  ["delivery_started", { number, ...deliver, content_kept: false, lost_at: iso(millis + 60_000) }, millis] as const
const failed = (number: number, millis: number, next?: number) =>
  [
    "delivery_failed",
    {
      number,
      because: "server_failure",
      detail: "down",
      ...(next === undefined ? {} : { next_attempt_at: iso(next) })
    },
    millis
  ] as const

describe("the step of a request's delivery", () => {
  it("never delivers a request held for an agent", () => {
    expect(deliveryStep(request([], true, "agent"), requestedAt)._tag).toBe("None")
  })

  it("opens the first attempt at once, caused by the request", () => {
    expect(deliveryStep(request(), requestedAt)).toMatchObject({ _tag: "Attempt", number: 1, causedBy: "f2" })
  })

  it("waits for an open attempt, and counts it lost at its lost_at", () => {
    const open = request([started(1, 0)])
    expect(deliveryStep(open, requestedAt + 59_999)._tag).toBe("None")
    expect(deliveryStep(open, requestedAt + 60_000)).toMatchObject({ _tag: "Lost", attempt: { number: 1 } })
  })

  it("opens the next attempt at the failure's next_attempt_at, caused by the failure; none once spent", () => {
    const retrying = request([started(1, 0), failed(1, 1_000, 61_000)])
    expect(deliveryStep(retrying, requestedAt + 60_999)._tag).toBe("None")
    expect(deliveryStep(retrying, requestedAt + 61_000)).toMatchObject({ _tag: "Attempt", number: 2, causedBy: "f5" })
    expect(deliveryStep(request([started(1, 0), failed(1, 1_000)]), requestedAt + 10_000_000)._tag).toBe("None")
  })

  it("moves nothing for a request delivered, refused, answered, cancelled, expired or ended", () => {
    const later = requestedAt + 600_000
    const afterFailure = [started(1, 0), failed(1, 1_000, 61_000)] as const
    for (const fact of [
      ["request_answered", { answer: "yes", answered_by: { id: "a", name: "a" } }, 2_000],
      ["run_cancel_requested", { kind: "requested" }, 2_000],
      ["run_rejected", { reason: "unanswered", kind: "expired", detail: "x" }, 2_000]
    ] as const)
      expect(deliveryStep(request([...afterFailure, fact]), later)._tag).toBe("None")
    expect(deliveryStep(request([started(1, 0), ["delivery_succeeded", { number: 1 }, 10]]), later)._tag).toBe("None")
    expect(
      deliveryStep(request([started(1, 0), ["delivery_refused", { number: 1, because: "unworkable" }, 10]]), later)._tag
    ).toBe("None")
    expect(deliveryStep(request(afterFailure), requestedAt + 86_400_000)._tag).toBe("None")
  })
})

describe("the time of the next attempt", () => {
  it("follows the schedule by the failed attempt's number, honours Retry-After up to its cap, and stops after 5", () => {
    expect([1, 2, 3, 4].map((number) => nextAttemptAt(number, requestedAt, undefined, settings))).toEqual(
      [60_000, 120_000, 240_000, 480_000].map(iso)
    )
    expect(nextAttemptAt(1, requestedAt, 7_000, settings)).toBe(iso(7_000))
    expect(nextAttemptAt(4, requestedAt, 3_600_000, settings)).toBe(iso(480_000))
    expect(nextAttemptAt(5, requestedAt, undefined, settings)).toBeUndefined()
  })
})

describe("the facts that end an attempt", () => {
  const succeeded = { type: "delivery_succeeded", data: { number: 1, content_kept: false } } as const
  const refused = { type: "delivery_refused", data: { number: 1, because: "unworkable", detail: "no" } } as const

  it("end a notification's run: succeeded with {} once delivered, unanswered/undelivered once refused", () => {
    const notification = request([started(1, 0)], false)
    const delivered = attemptEndingDrafts(notification, succeeded, "f4", requestedAt)
    expect(delivered.map((fact) => fact.type)).toEqual(["delivery_succeeded", "run_succeeded"])
    expect(delivered[1]!.data).toMatchObject({ output: {} })
    expect(delivered[0]!.metadata).toMatchObject({ causation_id: "f4", at: iso(0), run_id: "r" })
    const undelivered = attemptEndingDrafts(notification, refused, "f4", requestedAt)
    expect(undelivered[1]).toMatchObject({ type: "run_rejected", data: { reason: "unanswered", kind: "undelivered" } })
  })

  it("leave a question open, and a notification whose next attempt follows", () => {
    expect(attemptEndingDrafts(request([started(1, 0)]), refused, "f4", requestedAt)).toHaveLength(1)
    const retrying = {
      type: "delivery_failed",
      data: { number: 1, because: "timed_out", detail: "slow", next_attempt_at: iso(60_000) }
    } as const
    expect(attemptEndingDrafts(request([started(1, 0)], false), retrying, "f4", requestedAt)).toHaveLength(1)
  })
})
