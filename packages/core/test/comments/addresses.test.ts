import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { type CommentsFixture, makeCommentsFixture } from "./commentsFixture.js"

let f: CommentsFixture
beforeEach(async () => {
  f = await makeCommentsFixture()
})
afterEach(() => f.runtime.dispose())

const run = "019a4012-7c3e-7d10-9b2a-4e6f8a1c2d3e"
const event = "019a4013-0000-7000-8000-000000000001"
const connection = "019a3f10-2b4c-7d5e-8f60-718293a4b5c6"
const server = "https://studio.on.auto/?server=https%3A%2F%2Fruntime.example.com"

/** Each form of a playbook's address, with the Studio parameters between `server` and `comment`. */
const playbookForms: ReadonlyArray<readonly [string, string]> = [
  ["playbooks/finance", "&playbook=finance"],
  ["playbooks/finance/parts/description", "&playbook=finance"],
  ["finance/definitions/computation/total-spend/3", "&playbook=finance&computation=total-spend&version=3"],
  [
    "finance/definitions/reasoning/summarize-brief/1/parts/diagram",
    "&playbook=finance&reasoning=summarize-brief&version=1"
  ],
  ["finance/definitions/workflow/close-the-week/4", "&playbook=finance&workflow=close-the-week&version=4"],
  [
    "finance/definitions/workflow/close-the-week/4/steps/do/1/review",
    "&playbook=finance&workflow=close-the-week&version=4&step=do%2F1%2Freview"
  ],
  [
    "finance/definitions/workflow/close-the-week/4/steps/do/0/check/try/0/assess",
    "&playbook=finance&workflow=close-the-week&version=4&step=do%2F0%2Fcheck%2Ftry%2F0%2Fassess"
  ],
  [`finance/runs/${run}`, `&playbook=finance&ledger=&run=${run}`],
  [`finance/runs/${run}/parts/total`, `&playbook=finance&ledger=&run=${run}`],
  [`finance/runs/${run}/events/${event}`, `&playbook=finance&ledger=&run=${run}&event=${event}`],
  [`finance/runs/${run}/events/${event}_2`, `&playbook=finance&ledger=&run=${run}&event=${event}_2`],
  [`finance/runs/${run}/result/2`, `&playbook=finance&ledger=&run=${run}&block=2`],
  [`finance/${run}`, `&playbook=finance&ledger=&run=${run}`]
]

/** Each form of the organization's address, with its Studio parameters. */
const orgForms: ReadonlyArray<readonly [string, string]> = [
  ["org", ""],
  ["org/parts/name", ""],
  [`org/connections/${connection}`, "&settings=connections"],
  [`org/connections/${connection}/parts/status`, "&settings=connections"],
  ["org/members/person:user_7kLm2", "&settings=members"],
  ["org/members/person:user_7kLm2/parts/role", "&settings=members"],
  ["org/settings/billing", "&settings=billing"],
  ["org/settings/billing/parts/plan", "&settings=billing"]
]

describe("the forms of an address", () => {
  it("takes every form of a playbook's thing, and links each to its place in Studio", async () => {
    for (const [address, place] of playbookForms) {
      const comment = await f.make({ address, text: "Look here" })
      expect(comment.address, address).toBe(address)
      expect(comment.studio, address).toBe(`${server}${place}&comment=${comment.id}`)
    }
  })

  it("takes every form of the organization's thing on the organization's route", async () => {
    for (const [address, place] of orgForms) {
      const comment = await f.make({ address, text: "Look here" }, null)
      expect(comment.address, address).toBe(address)
      expect(comment.studio, address).toBe(`${server}${place}&comment=${comment.id}`)
    }
  })

  it("links a comment on a step exactly as the seed's example does", async () => {
    const comment = await f.make({
      address: "finance/definitions/workflow/close-the-week/4/steps/do/1/review",
      text: "Flag any entry over $10,000 for Priya before the week closes.",
      anchor: { x: 0.6125, y: 0.4 }
    })
    expect(comment.studio).toBe(
      `https://studio.on.auto/?server=https%3A%2F%2Fruntime.example.com&playbook=finance&workflow=close-the-week&version=4&step=do%2F1%2Freview&comment=${comment.id}`
    )
  })

  it("keeps the UUIDs of an address in lower case", async () => {
    const upper = `finance/runs/${run.toUpperCase()}/events/${event.toUpperCase()}`
    expect((await f.make({ address: upper, text: "x" })).address).toBe(`finance/runs/${run}/events/${event}`)
    expect((await f.make({ address: `org/connections/${connection.toUpperCase()}`, text: "x" }, null)).address).toBe(
      `org/connections/${connection}`
    )
  })

  it("leaves studio out where no Studio is configured, or where Studio would not open the runtime", async () => {
    const bare = await makeCommentsFixture({ studioOrigin: undefined })
    const plain = await makeCommentsFixture({ publicUrl: "http://runtime.example.com" })
    try {
      expect(await bare.make({ address: "playbooks/finance", text: "x" })).not.toHaveProperty("studio")
      expect(await plain.make({ address: "org", text: "x" }, null)).not.toHaveProperty("studio")
    } finally {
      await bare.runtime.dispose()
      await plain.runtime.dispose()
    }
  })

  it("refuses at /address what is of no form a comment takes, and records nothing", async () => {
    const bad = [
      "",
      "finance",
      "finance/",
      "finance//runs",
      "finance/runs",
      "finance/runs/not-a-run",
      `finance/runs/${run}/events`,
      `finance/runs/${run}/events/nope`,
      `finance/runs/${run}/events/${event}/parts/a`,
      `finance/runs/${run}/result/0`,
      `finance/runs/${run}/result/01`,
      `finance/runs/${run}/result/2/parts/a`,
      `finance/runs/${run}/parts`,
      `finance/runs/${run}/parts/a/b`,
      `finance/runs/${run}/parts/has space`,
      `finance/${run}/parts/a`,
      "finance/definitions/spreadsheet/total-spend/3",
      "finance/definitions/computation/TotalSpend/3",
      "finance/definitions/computation/total-spend/0",
      "finance/definitions/computation/total-spend/v3",
      "finance/definitions/computation/total-spend/3/steps/do/1/review",
      "finance/definitions/workflow/close-the-week/4/steps",
      "finance/definitions/workflow/close-the-week/4/steps/review",
      "finance/definitions/workflow/close-the-week/4/steps/do/x/review",
      "finance/definitions/workflow/close-the-week/4/steps/do/1/review/parts/a",
      "playbooks",
      "playbooks/finance/parts",
      "playbooks/finance/parts/a/b",
      `Finance/runs/${run}`
    ]
    for (const address of bad) {
      const refusal = await f.refusal(f.call("make_comment", { address, text: "x" }))
      expect(refusal.reason, address).toBe("invalid_input")
      expect(refusal.errors, address).toEqual([
        {
          pointer: "/address",
          detail: expect.stringMatching(/^address: is not of a form a comment takes, such as playbooks\/finance, /)
        }
      ])
    }
    for (const address of [
      "org/connections/not-a-uuid",
      "org/settings/Billing",
      "org/teams/a",
      "org/parts",
      "organization"
    ]) {
      const refusal = await f.refusal(f.call("make_comment_in_org", { address, text: "x" }, null))
      expect(refusal.errors?.[0], address).toEqual({
        pointer: "/address",
        detail:
          "address: is not of a form a comment takes, such as org, org/connections/<connection>, org/members/<member> or org/settings/<page>."
      })
    }
    expect(await f.commentFacts()).toEqual([])
  })

  it("refuses a definition without its version where under does not take it", async () => {
    const refusal = await f.refusal(
      f.call("make_comment", { address: "finance/definitions/computation/total-spend", text: "x" })
    )
    expect(refusal.errors).toEqual([
      {
        pointer: "/address",
        detail: "address: names a definition without its version, which only a list with under takes; add its version."
      }
    ])
  })

  it("refuses another playbook's address, the organization's on a playbook's route and the reverse", async () => {
    const cases: ReadonlyArray<readonly [string | null, string, string]> = [
      ["finance", `sales/runs/${run}`, "address: names the playbook sales, not finance; use that playbook's comments."],
      ["finance", "playbooks/sales", "address: names the playbook sales, not finance; use that playbook's comments."],
      [
        "finance",
        `org/connections/${connection}`,
        "address: is of the organization's own things, whose comments belong to no playbook; use the organization's comments."
      ],
      [
        "finance",
        "org",
        "address: is of the organization's own things, whose comments belong to no playbook; use the organization's comments."
      ],
      [
        null,
        `finance/runs/${run}`,
        "address: is of the playbook finance, whose comments are that playbook's; use its comments."
      ],
      [
        null,
        "playbooks/finance",
        "address: is of the playbook finance, whose comments are that playbook's; use its comments."
      ]
    ]
    for (const [playbook, address, detail] of cases) {
      const refusal = await f.refusal(
        f.call(playbook === null ? "make_comment_in_org" : "make_comment", { address, text: "x" }, playbook)
      )
      expect(refusal.errors, address).toEqual([{ pointer: "/address", detail }])
    }
  })

  it("takes an address of 512 characters and refuses one of 513 at /address", async () => {
    const at512 = `playbooks/finance/parts/${"p".repeat(512 - "playbooks/finance/parts/".length)}`
    expect(at512).toHaveLength(512)
    expect((await f.make({ address: at512, text: "x" })).address).toBe(at512)
    const refusal = await f.refusal(f.call("make_comment", { address: `${at512}p`, text: "x" }))
    expect(refusal.errors).toEqual([{ pointer: "/address", detail: "address: must be at most 512 characters" }])
  })

  it("reads an address by the route it is given on where a playbook is named like a word of the forms", async () => {
    await f.answer(f.call("create_playbook", { playbook: "org", name: "Org" }, null))
    expect((await f.make({ address: `org/runs/${run}`, text: "x" }, "org")).address).toBe(`org/runs/${run}`)
    expect((await f.make({ address: "org/settings/billing", text: "x" }, null)).address).toBe("org/settings/billing")
    const inOrg = await f.refusal(f.call("make_comment_in_org", { address: `org/runs/${run}`, text: "x" }, null))
    expect(inOrg.errors?.[0].detail).toBe(
      "address: is of the playbook org, whose comments are that playbook's; use its comments."
    )
  })
})
