import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AcceptanceServer, onEveryStore, startAcceptanceServer } from "./storeServers.js"
import { waitFor } from "./waitFor.js"
import { asking } from "./workflowDocuments.js"

/** A workflow that listens for one event of type a and one of type b, and outputs their data in that order. */
const listening = `document:
  dsl: '1.0.3'
  namespace: test
  name: hear
  version: '1.0.0'
do:
  - hear:
      listen:
        to:
          all:
            - with: { type: com.example.a }
            - with: { type: com.example.b }
`

/** A value nested `levels` lists deep. */
const nested = (levels: number): unknown => {
  let value: unknown = 1
  for (let level = 0; level < levels; level++) value = [value]
  return value
}

/** The bytes of a value as JSON. */
const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length

/** An event of `bytes` bytes as JSON, its data filled with `x`, beside the attributes given. */
const eventOfBytes = <A extends Record<string, unknown>>(bytes: number, attributes: A) => {
  const empty = { ...attributes, data: "" }
  return { ...attributes, data: "x".repeat(bytes - bytesOf(empty)) }
}

/** A source of its own for each test, so that their ids never meet. */
let sources = 0
const freshSource = () => `/ledger/t${++sources}`

onEveryStore("publishing events and sending events to runs over HTTP", (store) => {
  let server: AcceptanceServer
  let base: string
  beforeAll(async () => {
    server = await startAcceptanceServer(store())
    const id = `events-${Math.random().toString(36).slice(2, 8)}`
    expect((await server.send("POST", "/v1/orgs/local/playbooks", { playbook: id, name: id })).status).toBe(201)
    base = `/v1/orgs/local/playbooks/${id}`
    const saved = await server.send("POST", `${base}/definitions/workflow`, { name: "hear", source: listening })
    expect(saved.status, JSON.stringify(saved.body)).toBe(201)
    const ask = await server.send("POST", `${base}/definitions/interaction`, {
      name: "ask",
      source: asking,
      diagram: "none"
    })
    expect(ask.status, JSON.stringify(ask.body)).toBe(201)
    // What the saves set going in the background settles before the tests count facts.
    await waitFor(async () => {
      const count = await server.factCount()
      await new Promise((resolve) => setTimeout(resolve, 300))
      return (await server.factCount()) === count ? count : undefined
    })
  }, 60_000)
  afterAll(() => server?.close())

  const publish = (event: unknown) => server.send("POST", `${base}/events`, { event })

  /** How many events of a source `list_playbook_events` shows as event_published. */
  const publishedOf = async (source: string) => {
    const listed = await server.send("GET", `${base}/events?type=event_published&limit=100`)
    return listed.body.events.filter((event: any) => event.data.source === source).length
  }

  /** Sends a request that must be refused, and checks its problem and that the ledger holds no more facts. */
  const refused = async (
    request: () => Promise<{ status: number; headers: Headers; body: any }>,
    status: number,
    reason: string,
    pointers?: ReadonlyArray<string>
  ) => {
    const before = await server.factCount()
    const answer = await request()
    expect(answer.status, JSON.stringify(answer.body)).toBe(status)
    expect(answer.headers.get("content-type")).toContain("application/problem+json")
    expect(answer.body).toMatchObject({ type: `https://on.auto/problems/${reason}`, status, reason })
    if (pointers !== undefined)
      expect(answer.body.errors.map((error: { pointer: string }) => error.pointer)).toEqual(pointers)
    expect(await server.factCount()).toBe(before)
    return answer.body
  }

  describe("publish_event", () => {
    it("records the event once, answers its id, time and recorded_at, and lists it as event_published", async () => {
      const source = freshSource()
      const event = {
        source,
        type: "com.acme.ledger.month-closed",
        id: "2026-09",
        subject: "september",
        data: { region: "eu", revenue: 120000 }
      }
      const first = await publish(event)
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(first.headers.get("cache-control")).toBe("no-store")
      expect(Object.keys(first.body).sort()).toEqual(["id", "recorded_at", "time"])
      expect(first.body.id).toBe("2026-09")
      expect(first.body.time).toBe(first.body.recorded_at)
      expect(await publishedOf(source)).toBe(1)
      const listed = await server.send("GET", `${base}/events?type=event_published&limit=100`)
      const shown = listed.body.events.find((one: any) => one.data.source === source)
      expect(shown).toMatchObject({
        type: "event_published",
        data: {
          event_id: "2026-09",
          event_type: "com.acme.ledger.month-closed",
          source,
          subject: "september",
          time: first.body.time,
          data: { region: "eu", revenue: 120000 }
        }
      })
      const again = await publish(event)
      expect(again.status).toBe(200)
      expect(again.body).toEqual(first.body)
      expect(await publishedOf(source)).toBe(1)
    })

    it("records a new event for each request without an id", async () => {
      const event = { source: freshSource(), type: "com.example.tick" }
      const one = await publish(event)
      const two = await publish(event)
      expect([one.status, two.status]).toEqual([200, 200])
      expect(one.body.id).not.toBe(two.body.id)
      expect(await publishedOf(event.source)).toBe(2)
    })

    it("keeps the same id under another source as another event", async () => {
      const [first, second] = [freshSource(), freshSource()]
      const one = await publish({ source: first, type: "com.example.tick", id: "shared" })
      const two = await publish({ source: second, type: "com.example.other", id: "shared" })
      expect([one.status, two.status]).toEqual([200, 200])
      expect([await publishedOf(first), await publishedOf(second)]).toEqual([1, 1])
    })

    it("takes a retry that leaves out time as the same event", async () => {
      const event = { source: freshSource(), type: "com.example.closed", id: "e", time: "2026-10-01T09:00:00Z" }
      const first = await publish(event)
      expect(first.body.time).toBe("2026-10-01T09:00:00Z")
      const before = await server.factCount()
      const { time: _time, ...withoutTime } = event
      const retry = await publish(withoutTime)
      expect(retry.status).toBe(200)
      expect(retry.body).toEqual(first.body)
      expect(await server.factCount()).toBe(before)
    })

    it("takes a retry giving a time to an event first published without one as the same, with the first time", async () => {
      const event = { source: freshSource(), type: "com.example.closed", id: "e" }
      const first = await publish(event)
      const before = await server.factCount()
      const retry = await publish({ ...event, time: "2020-01-01T00:00:00Z" })
      expect(retry.status).toBe(200)
      expect(retry.body).toEqual(first.body)
      expect(retry.body.time).not.toBe("2020-01-01T00:00:00Z")
      expect(await server.factCount()).toBe(before)
    })

    it("compares times as instants, offsets and the leap second included", async () => {
      for (const [firstTime, sameTime, otherTime] of [
        ["2026-10-01T10:59:00+02:00", "2026-10-01T08:59:00Z", "2026-10-01T10:59:00Z"],
        ["2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z", "2016-12-31T23:59:59Z"],
        ["2017-01-01T01:59:60+02:00", "2017-01-01T00:00:00.000Z", "2017-01-01T00:00:01Z"]
      ] as const) {
        const event = { source: freshSource(), type: "com.example.closed", id: "e", time: firstTime }
        const first = await publish(event)
        expect(first.status, JSON.stringify(first.body)).toBe(200)
        expect(first.body.time).toBe(firstTime)
        const before = await server.factCount()
        const same = await publish({ ...event, time: sameTime })
        expect(same.status, sameTime).toBe(200)
        expect(same.body).toEqual(first.body)
        const other = await refused(() => publish({ ...event, time: otherTime }), 409, "conflict")
        expect(other.detail).toBe(
          `The playbook already holds another event with the source ${event.source} and the id e.`
        )
        expect(await server.factCount()).toBe(before)
      }
    })

    it("refuses a different event with the same source and id as conflict", async () => {
      const event = { source: freshSource(), type: "com.example.closed", id: "e", data: { n: 1 } }
      expect((await publish(event)).status).toBe(200)
      await refused(() => publish({ ...event, data: { n: 2 } }), 409, "conflict")
      await refused(() => publish({ ...event, subject: "more" }), 409, "conflict")
      await refused(() => publish({ ...event, type: "com.example.opened" }), 409, "conflict")
    })

    it("keeps extensions as given and accepts each attribute at its limit", async () => {
      const extensions = Object.fromEntries(Array.from({ length: 32 }, (_, n) => [`ext${n}`, n]))
      const event = {
        source: `/${"s".repeat(1023)}`,
        type: "t".repeat(256),
        id: "i".repeat(256),
        subject: "u".repeat(1024),
        specversion: "1.0",
        datacontenttype: "application/json; charset=utf-8",
        dataschema: `https://example.com/${"d".repeat(1004)}`,
        data: nested(510),
        ...extensions,
        ext0: "kept as given",
        ext1: true,
        ext2: -2_147_483_648,
        ext3: 2_147_483_647,
        ext4: ""
      }
      const published = await publish(event)
      expect(published.status, JSON.stringify(published.body)).toBe(200)
      const listed = await server.send("GET", `${base}/events?type=event_published&limit=1`)
      const whole = await server.send("GET", `${base}/events/${listed.body.events[0].id}`)
      expect(whole.body.data.event).toMatchObject({
        ...extensions,
        ext0: "kept as given",
        ext1: true,
        ext2: -2_147_483_648,
        ext3: 2_147_483_647,
        ext4: ""
      })
      expect(whole.body.data.filled).toEqual(["time"])
      for (const fine of [
        { source: "https://acme.example/ledger", type: "a", subject: "x y", data: "\u0007 \uFFFE \t not checked" },
        { source: "urn:example:ledger", type: "a", time: "2026-10-02T01:59:60+02:00" },
        { source: "/ledger/%C3%A9", type: "a", time: "2026-10-01t09:00:00.123456z", datacontenttype: "text/plain" }
      ]) {
        const answer = await publish(fine)
        expect(answer.status, JSON.stringify([fine, answer.body])).toBe(200)
      }
    })

    it("refuses an event over 240 KiB once its id and time are filled in, at /event", async () => {
      const attributes = { source: freshSource(), type: "com.example.big", id: "big", time: "2026-10-01T09:00:00Z" }
      const problem = await refused(() => publish(eventOfBytes(245_761, attributes)), 422, "invalid_input", ["/event"])
      expect(problem.detail).toBe("event: holds more than 240 KiB as JSON once its id and time are filled in.")
      expect((await publish(eventOfBytes(245_760, attributes))).status).toBe(200)
      const filled = { source: freshSource(), type: "com.example.big" }
      const withFilled = { ...filled, id: "0".repeat(36), time: "2026-10-01T09:00:00.000Z" }
      const overOnceFilled = eventOfBytes(245_761, withFilled)
      const { id: _id, time: _time, ...given } = overOnceFilled
      await refused(() => publish(given), 422, "invalid_input", ["/event"])
    })

    const invalid: ReadonlyArray<readonly [string, Record<string, unknown>, ReadonlyArray<string>, string?]> = [
      ["no source", { type: "a" }, ["/event/source"], "source: is required."],
      ["no type", { source: "/s" }, ["/event/type"], "type: is required."],
      ["a type that is not text", { source: "/s", type: 1 }, ["/event/type"], "type: must be text."],
      ["a type of 257 characters", { source: "/s", type: "t".repeat(257) }, ["/event/type"]],
      ["an id of 257 characters", { source: "/s", type: "a", id: "i".repeat(257) }, ["/event/id"]],
      ["a source of 1,025 characters", { source: `/${"s".repeat(1024)}`, type: "a" }, ["/event/source"]],
      [
        "a subject of 1,025 characters",
        { source: "/s", type: "a", subject: "u".repeat(1025) },
        ["/event/subject"],
        "subject: must be at most 1,024 characters."
      ],
      [
        "a datacontenttype of 257 characters",
        { source: "/s", type: "a", datacontenttype: `text/${"p".repeat(252)}` },
        ["/event/datacontenttype"]
      ],
      [
        "a dataschema of 1,025 characters",
        { source: "/s", type: "a", dataschema: `https://example.com/${"d".repeat(1005)}` },
        ["/event/dataschema"]
      ],
      [
        "a reserved type",
        { source: "/s", type: "run_started" },
        ["/event/type"],
        "type: run_started is a type the runtime records itself; choose another type."
      ],
      ["event_published as the type", { source: "/s", type: "event_published" }, ["/event/type"]],
      ["step_finished as the type", { source: "/s", type: "step_finished" }, ["/event/type"]],
      [
        "a source under /runs/",
        { source: "/runs/x", type: "a" },
        ["/event/source"],
        "source: sources beginning /runs/, /definitions/, /callers/ are the runtime's own; choose another source."
      ],
      ["a source under /definitions/", { source: "/definitions/x", type: "a" }, ["/event/source"]],
      ["a source under /callers/", { source: "/callers/x", type: "a" }, ["/event/source"]],
      ...[
        "causationid",
        "correlationid",
        "caller",
        "definitionversion",
        "depth",
        "calldepth",
        "calledby",
        "triggerkind",
        "triggerreference"
      ].map(
        (name) =>
          [
            `the reserved attribute ${name}`,
            { source: "/s", type: "a", [name]: "x" },
            [`/event/${name}`],
            `${name}: ${name} is an attribute the runtime gives its own events.`
          ] as const
      ),
      [
        "a control character in the type",
        { source: "/s", type: "a\u0007" },
        ["/event/type"],
        "type: must not contain a control character, a lone surrogate or a noncharacter."
      ],
      ["a lone surrogate in the subject", { source: "/s", type: "a", subject: "x\uD800" }, ["/event/subject"]],
      ["a noncharacter in the id", { source: "/s", type: "a", id: "x\uFFFF" }, ["/event/id"]],
      ["a noncharacter U+FDD0 in the source", { source: "/s\uFDD0", type: "a" }, ["/event/source"]],
      ["a control character in an extension", { source: "/s", type: "a", note: "x\u0000" }, ["/event/note"]],
      [
        "a control character in datacontenttype",
        { source: "/s", type: "a", datacontenttype: "text/plain\u007f" },
        ["/event/datacontenttype"]
      ],
      [
        "an id of spaces",
        { source: "/s", type: "a", id: "   " },
        ["/event/id"],
        "id: needs a character other than a space."
      ],
      ["a type of a space", { source: "/s", type: " " }, ["/event/type"]],
      ["an empty subject", { source: "/s", type: "a", subject: "" }, ["/event/subject"]],
      ["an empty source", { source: "", type: "a" }, ["/event/source"]],
      [
        "a source that is not a URI reference",
        { source: "/ledger eu", type: "a" },
        ["/event/source"],
        "source: must be a URI reference such as /ledger/eu."
      ],
      ["a bad percent-encoding in the source", { source: "/ledger/%zz", type: "a" }, ["/event/source"]],
      [
        "a datacontenttype that is not a media type",
        { source: "/s", type: "a", datacontenttype: "json" },
        ["/event/datacontenttype"],
        "datacontenttype: must be a media type such as application/json."
      ],
      [
        "a relative dataschema",
        { source: "/s", type: "a", dataschema: "/schemas/a.json" },
        ["/event/dataschema"],
        "dataschema: must be an absolute URI."
      ],
      ...[
        "2026-10-01 09:00",
        "2026-10-01T09:00:00",
        "2026-10-01T24:00:00Z",
        "2026-02-30T09:00:00Z",
        "2026-10-01T09:00:00+24:00",
        "2026-10-01T12:59:60Z",
        "2016-12-31T23:59:60+01:00"
      ].map(
        (time) =>
          [
            `the time ${time}`,
            { source: "/s", type: "a", time },
            ["/event/time"],
            "time: must be an RFC 3339 time with its offset, such as 2026-10-01T09:00:00Z."
          ] as const
      ),
      [
        "another specversion",
        { source: "/s", type: "a", specversion: "0.3" },
        ["/event/specversion"],
        "specversion: must be 1.0."
      ],
      [
        "data 511 levels deep",
        { source: "/s", type: "a", data: nested(511) },
        ["/event/data"],
        "data: nests more than 510 levels deep."
      ],
      [
        "33 extensions",
        { source: "/s", type: "a", ...Object.fromEntries(Array.from({ length: 33 }, (_, n) => [`ext${n}`, n])) },
        ["/event"],
        "event: may have at most 32 extensions."
      ],
      [
        "an extension name with capitals",
        { source: "/s", type: "a", Note: "x" },
        ["/event/Note"],
        "Note: an extension's name is 1 to 20 lowercase letters and digits."
      ],
      [
        "an extension name of 21 characters",
        { source: "/s", type: "a", ["n".repeat(21)]: 1 },
        [`/event/${"n".repeat(21)}`]
      ],
      ["an extension name with a slash", { source: "/s", type: "a", "a/b": 1 }, ["/event/a~1b"]],
      ...[2_147_483_648, -2_147_483_649, 1.5, null, { a: 1 }, [1]].map(
        (value) =>
          [
            `the extension value ${JSON.stringify(value)}`,
            { source: "/s", type: "a", note: value },
            ["/event/note"],
            "note: an extension's value is a string, a boolean or an integer from -2,147,483,648 to 2,147,483,647."
          ] as const
      ),
      [
        "several issues at once",
        { source: "/runs/x", type: "run_failed", depth: 1 },
        ["/event/type", "/event/source", "/event/depth"]
      ]
    ]
    for (const [name, event, pointers, detail] of invalid)
      it(`refuses ${name} as invalid_input, recording nothing`, async () => {
        const problem = await refused(() => publish(event), 422, "invalid_input", pointers)
        expect(problem.title).toBe("Invalid input")
        if (detail !== undefined) {
          expect(problem.detail).toBe(detail)
          expect(problem.errors).toEqual([{ pointer: pointers[0], detail }])
        }
      })

    it("refuses an event that is not an object", async () => {
      await refused(() => publish("not an event"), 422, "invalid_input", ["/event"])
    })
  })

  describe("send_run_event", () => {
    const send = (run: string, event: unknown) => server.send("POST", `${base}/runs/${run}/events`, { event })
    const start = async () => {
      const started = await server.send("POST", `${base}/definitions/workflow/hear/run`, {})
      expect(started.status, JSON.stringify(started.body)).toBe(200)
      expect(started.body.status).toBe("started")
      return started.body.run_id as string
    }

    it("fills in id, source and time, takes an id once, refuses what the seed refuses, and ends", async () => {
      const run = await start()
      const first = await send(run, { type: "com.example.a", data: "first" })
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(first.body.run_id).toBe(run)
      expect(first.body.event).toMatchObject({ type: "com.example.a", data: "first" })
      expect(first.body.event.id).toMatch(/^[0-9a-f-]{36}$/)
      expect(first.body.event.source).toMatch(/^\/callers\/.+/)
      expect(Number.isNaN(Date.parse(first.body.event.time))).toBe(false)

      const kept = await send(run, { type: "com.example.c", id: "kept", source: "/ledger/eu", subject: "s" })
      expect(kept.status).toBe(200)
      expect(kept.body.event).toMatchObject({ id: "kept", source: "/ledger/eu", subject: "s" })
      const before = await server.factCount()
      const repeated = await send(run, { type: "com.example.c", id: "kept", source: "/ledger/eu", subject: "s" })
      expect(repeated.status).toBe(200)
      expect(repeated.body.event.id).toBe("kept")
      expect(await server.factCount()).toBe(before)

      const attributes = { type: "com.example.c", id: "i", source: "/s" }
      const time = new Date().toISOString()
      const atBound = eventOfBytes(262_144 - (bytesOf({ time }) - 1), attributes)
      expect((await send(run, atBound)).status).toBe(200)
      const overBound = eventOfBytes(262_145 - (bytesOf({ time }) - 1), { ...attributes, id: "j" })
      const tooLarge = await refused(() => send(run, overBound), 422, "invalid_input", ["/event"])
      expect(tooLarge.detail).toBe("event: holds more than 256 KiB as JSON.")

      for (const [event, pointers] of [
        [{ type: "run_started" }, ["/event/type"]],
        [{ type: "workflow_input_applied" }, ["/event/type"]],
        [{ type: "a", source: "/runs/x" }, ["/event/source"]],
        [{ type: "a", source: "/definitions/x" }, ["/event/source"]],
        [{ type: "a", source: "/callers/someone" }, ["/event/source"]],
        [{ type: "t".repeat(257) }, ["/event/type"]],
        [{ type: "a", id: "i".repeat(257) }, ["/event/id"]],
        [{ type: "a", source: `/${"s".repeat(1024)}` }, ["/event/source"]],
        [{ type: "a", subject: "s".repeat(1025) }, ["/event/subject"]],
        [{ type: "a\u001b" }, ["/event/type"]],
        [{ type: "a", id: "\uDC00" }, ["/event/id"]],
        [{ type: "a", subject: "\uFDEF" }, ["/event/subject"]],
        [{ type: "  " }, ["/event/type"]],
        [{ type: "a", id: " " }, ["/event/id"]],
        [{ type: "a", subject: " " }, ["/event/subject"]],
        [{ type: "a", data: nested(511) }, ["/event/data"]],
        [{ type: "a", time: "2026-10-01T09:00:00Z" }, ["/event/time"]],
        [{ source: "/s" }, ["/event/type"]]
      ] as const)
        await refused(() => send(run, event), 422, "invalid_input", pointers)
      expect((await send(run, { type: "com.example.a", data: nested(510) })).status).toBe(200)

      expect((await send(run, { type: "com.example.b", data: "second" })).status).toBe(200)
      const ended = await waitFor(async () => {
        const read = await server.send("GET", `${base}/runs/${run}`)
        return read.body.status === "started" ? undefined : read.body
      })
      expect(ended).toMatchObject({ status: "succeeded", output: ["first", "second"] })
      const problem = await refused(() => send(run, { type: "com.example.a", id: "late" }), 404, "not_found")
      expect(problem.detail).toContain(run)
    }, 60_000)

    it("refuses a run id the playbook has no workflow run under as not_found", async () => {
      await refused(() => send("0190a1b2-0000-7000-8000-000000000000", { type: "com.example.a" }), 404, "not_found")
      const asked = await server.send("POST", `${base}/definitions/interaction/ask/run`, {})
      expect(asked.body.status, JSON.stringify(asked.body)).toBe("started")
      const problem = await refused(() => send(asked.body.run_id, { type: "com.example.a" }), 404, "not_found")
      expect(problem.detail).toBe(
        `The playbook ${base.split("/").pop()} has no running workflow with the run id ${asked.body.run_id}.`
      )
    })
  })
})
