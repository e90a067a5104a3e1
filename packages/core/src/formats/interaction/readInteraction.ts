import { Either } from "effect"
import type { Template } from "liquidjs"
import type { ReadDocument, SourceIssue } from "../DefinitionFormat.js"
import { describeValue } from "../document/describeValue.js"
import { descriptionIssues } from "../document/descriptionIssues.js"
import { finishIssues } from "../document/finishIssues.js"
import { type FrontMatter, readFrontMatter } from "../document/readFrontMatter.js"
import { schemaIssues } from "../document/schemaIssues.js"
import { toolNameIssues } from "../document/toolNames.js"
import { type LookupCall, lineOfCall, readCall } from "../lookup/readLookup.js"
import { argumentsTooLargeAtSave } from "./argumentsAtSave.js"
import { argumentTemplates } from "./argumentTemplates.js"
import { checkTemplate } from "./checkTemplate.js"
import { interactionPlace } from "./interactionPlace.js"
import { durationMillis } from "./isoDuration.js"
import { type RepliesBlock, readReplies } from "./readReplies.js"
import { defaultReplyRule, type ReplyRule, readReplyRule } from "./replyRule.js"
import { requestVariables } from "./requestVariables.js"

/** A tool named by `deliver`: `server/tool`. */
export interface ToolName {
  readonly server: string
  readonly tool: string
}

/** Pointers into the sending tool's answer document: the conversation the message landed in and its identity. */
export interface SentPointers {
  readonly conversation: string
  readonly id: string
}

/**
 * A request's delivery through a tool (function-formats.md §3.3), as written: the tool, its `with` arguments
 * (absent for the default arguments, ADR 0192), and the `sent` pointers. The run's request records it as it is.
 */
export interface DeliverTool extends ToolName {
  readonly with?: Record<string, unknown>
  readonly sent?: SentPointers
}

/** An interaction document as read: what a definition shows and what a run renders. */
export interface InteractionDocument {
  readonly document: ReadDocument
  /** The party's template, and the parsed template (absent with `call`). */
  readonly to?: { readonly text: string; readonly template: ReadonlyArray<Template> }
  /** The answerer's template (`from`), whose replies count; absent when the document names none. */
  readonly from?: { readonly text: string; readonly template: ReadonlyArray<Template> }
  /** The message template: the body. */
  readonly message?: { readonly text: string; readonly template: ReadonlyArray<Template> }
  readonly expiresMillis?: number
  /** `agent`, or the tool a request is delivered through. */
  readonly deliver?: "agent" | DeliverTool
  /** How replies are read back from the conversation (`replies`, §3.5), as written and as read. */
  readonly replies?: { readonly written: Record<string, unknown>; readonly block: RepliesBlock }
  /** The reply rule a request that reads replies records: the written `reply`, or the default; null for none. */
  readonly replyRule: ReplyRule | null
  /** The tool a `call` acts through, called once (§3.1): read as a lookup's `call` is. */
  readonly call?: LookupCall
  /** The answer schema; absent for a notification. */
  readonly answerSchema?: unknown
}

/** Expiry bounds: one minute to thirty days (§3.2). */
const expiresBounds = { least: 60_000, most: 30 * 24 * 3_600_000 }

/** The keys `call` excludes (§3.2). */
const excludedByCall = "to from expires deliver replies reply".split(" ")

/** The keys refused beside `deliver: agent`, and why (decision F7). */
const refusedWithAgent: Readonly<Record<string, string>> = {
  from: "with deliver: agent the answer comes through answer_interaction, so there is no answerer to name",
  reply: "with deliver: agent the answer comes through answer_interaction, never from a reply",
  replies: "replies are read back from the conversation a tool delivered into; deliver: agent has none"
}

/** Words saying how a request can reach its party through a tool (seed "Interaction functions"). */
const throughATool =
  "name a tool of a tool server the playbook may use, as deliver: { server, tool, with } (search lists the servers and their tools)"

/**
 * The variables `deliver.with` reads (function-formats.md §3.3), and `how_to_answer`: how the party answers, in
 * words (ADR 0192).
 */
export const deliverVariables = [
  ...requestVariables,
  "to",
  "message",
  "run_id",
  "function",
  "expires_at",
  "answer_schema",
  "how_to_answer"
] as const

/** Reads `server` and `tool` of a `deliver` mapping. */
const toolOf = (front: FrontMatter, pointer: string, value: Record<string, unknown>, issues: Array<SourceIssue>) => {
  const { server, tool } = value
  issues.push(...toolNameIssues(front.issueAt, pointer, server, tool))
  return { server: String(server), tool: String(tool) }
}

/** The keys a `deliver` mapping takes. */
const deliverKeys = ["server", "tool", "with", "sent"]

/** Reads `deliver.with` (a mapping of typed arguments over `deliverVariables`) and `deliver.sent` (two pointers). */
const deliverArgumentsOf = (
  front: FrontMatter,
  mapping: Record<string, unknown>,
  issues: Array<SourceIssue>
): Pick<DeliverTool, "with" | "sent"> => {
  const withValue = mapping.with
  const sentValue = mapping.sent
  let written: Pick<DeliverTool, "with" | "sent"> = {}
  if (withValue !== undefined) {
    if (typeof withValue !== "object" || withValue === null || Array.isArray(withValue))
      issues.push(
        front.issueAt("/deliver/with", `expected a mapping of the tool's arguments, found ${describeValue(withValue)}`)
      )
    else {
      const { templates, issues: templateIssues } = argumentTemplates(withValue, "/deliver/with", deliverVariables)
      for (const issue of templateIssues) issues.push(front.issueAt(issue.pointer, issue.message))
      const tooLarge =
        templateIssues.length > 0 ? undefined : argumentsTooLargeAtSave(withValue, templates, "/deliver/with")
      if (tooLarge !== undefined) issues.push(front.issueAt("/deliver/with", tooLarge))
      written = { with: withValue as Record<string, unknown> }
    }
  }
  if (sentValue === undefined) return written
  const sent = (typeof sentValue === "object" && sentValue !== null ? sentValue : {}) as Record<string, unknown>
  const pointers = ["conversation", "id"].map((key) => {
    const pointer = sent[key]
    if (typeof pointer !== "string" || !pointer.startsWith("/"))
      issues.push(
        front.issueAt(
          `/deliver/sent/${key}`,
          `expected a JSON pointer into the tool's answer that begins with /, found ${describeValue(pointer)}; sent names both the conversation and the message's id, or is left out`
        )
      )
    return String(pointer)
  })
  for (const key of Object.keys(sent))
    if (key !== "conversation" && key !== "id")
      issues.push(
        front.issueAt(`/deliver/sent/${key}`, `unknown key ${JSON.stringify(key)}; sent takes conversation, id`)
      )
  return { ...written, sent: { conversation: pointers[0]!, id: pointers[1]! } }
}

/**
 * Reads an interaction function's document (function-formats.md §1.1, §3): the envelope; `description`; `to`
 * and `from` as templates over input, today and now; `expires` (PT1M to P30D); `deliver` (`agent` or a tool,
 * with `with` templates over `deliverVariables` and the two `sent` pointers);
 * `call`, which excludes the request's keys and the body; the answer schema (`output.schema`, absent for a
 * notification); the message template in the body; and the refusals when a document names no way to reach its
 * party, and of `from`, `reply` and `replies` with `deliver: agent` (decision F7). Every issue at once.
 */
export const readInteraction = (source: string): Either.Either<InteractionDocument, ReadonlyArray<SourceIssue>> =>
  Either.flatMap(
    readFrontMatter(source, interactionPlace, "an interaction function"),
    (front): Either.Either<InteractionDocument, ReadonlyArray<SourceIssue>> => {
      const value = front.value
      const issues: Array<SourceIssue> = front.issues.filter(
        (issue) => !(issue.pointer === "" && issue.message.endsWith("is required here"))
      )
      const description = value.description
      issues.push(...descriptionIssues(front.issueAt, description))
      const input = (value.input ?? {}) as Record<string, unknown>
      const output = (value.output ?? {}) as Record<string, unknown>
      if (input.schema !== undefined) issues.push(...schemaIssues(front.issueAt, "/input/schema", input.schema))
      if (output.schema !== undefined) issues.push(...schemaIssues(front.issueAt, "/output/schema", output.schema))
      const takesAnswer = output.schema !== undefined
      const template = (pointer: string, text: unknown) => {
        if (typeof text !== "string" || text.trim() === "") {
          issues.push(front.issueAt(pointer, `expected a template that names the party, found ${describeValue(text)}`))
          return undefined
        }
        const checked = checkTemplate(text, requestVariables)
        for (const issue of checked.issues)
          issues.push(front.issueAt(pointer, `line ${issue.line} of the template: ${issue.message}`))
        return checked.template === undefined ? undefined : { text, template: checked.template }
      }
      const message = () => {
        if (front.body.trim() === "") {
          issues.push(front.bodyIssue(1, 1, "the body holds the message the party reads; write it there"))
          return undefined
        }
        const checked = checkTemplate(front.body, requestVariables)
        for (const issue of checked.issues) issues.push(front.bodyIssue(issue.line, issue.column, issue.message))
        return checked.template === undefined ? undefined : { text: front.body, template: checked.template }
      }

      if (value.call !== undefined) {
        for (const key of excludedByCall)
          if (value[key] !== undefined)
            issues.push(front.issueAt(`/${key}`, `call excludes ${key}: a call acts through its tool and asks nobody`))
        if (front.body.trim() !== "")
          issues.push(front.bodyIssue(1, 1, "call takes no body: a call sends its tool's arguments, not a message"))
        if (!takesAnswer)
          issues.push(front.issueAt("/output", "call needs output.schema: the schema of the value it reads back"))
        const before = issues.length
        const call = readCall(front, lineOfCall(source), issues)
        const tooLarge =
          call === undefined || issues.length > before
            ? undefined
            : argumentsTooLargeAtSave(call.with, call.templates, "/call/with")
        if (tooLarge !== undefined) issues.push(front.issueAt("/call/with", tooLarge))
        if (issues.length > 0 || call === undefined) return Either.left(finishIssues(issues))
        return Either.right({ document: documentOf(value, input, output, false, true), call, replyRule: null })
      }

      const to = value.to === undefined ? undefined : template("/to", value.to)
      if (value.to === undefined)
        issues.push(front.issueAt("/to", "the key to is required: the party the request goes to"))
      const expiresText = value.expires
      const expiresMillis = typeof expiresText === "string" ? durationMillis(expiresText) : undefined
      if (expiresText === undefined)
        issues.push(front.issueAt("/expires", "the key expires is required: how long the request waits, PT1M to P30D"))
      else if (expiresMillis === undefined || expiresMillis < expiresBounds.least || expiresMillis > expiresBounds.most)
        issues.push(
          front.issueAt(
            "/expires",
            `expected an ISO 8601 duration from PT1M to P30D (weeks, days, hours, minutes, seconds), found ${describeValue(expiresText)}`
          )
        )

      const deliverValue = value.deliver
      let deliver: "agent" | DeliverTool | undefined
      let from: InteractionDocument["from"]
      let replies: InteractionDocument["replies"]
      let replyRule: ReplyRule | null = null
      if (deliverValue === undefined)
        issues.push(
          front.issueAt(
            "/deliver",
            takesAnswer
              ? `the request names no way to reach its party: write deliver: agent to hold it for an agent, who answers with answer_interaction, or ${throughATool}`
              : `a notification takes no answer, so no agent holds it: it goes through a tool; ${throughATool}`
          )
        )
      else if (deliverValue === "agent") {
        deliver = "agent"
        if (!takesAnswer)
          issues.push(
            front.issueAt(
              "/deliver",
              `a notification takes no answer, so no agent holds it: deliver: agent needs output.schema, the answer's schema; a notification goes through a tool: ${throughATool}`
            )
          )
        for (const [key, why] of Object.entries(refusedWithAgent))
          if (value[key] !== undefined) issues.push(front.issueAt(`/${key}`, `${key} is refused: ${why}`))
      } else if (typeof deliverValue === "object" && deliverValue !== null && !Array.isArray(deliverValue)) {
        const mapping = deliverValue as Record<string, unknown>
        for (const key of Object.keys(mapping))
          if (!deliverKeys.includes(key))
            issues.push(
              front.issueAt(
                `/deliver/${key}`,
                `unknown key ${JSON.stringify(key)}; this place takes ${deliverKeys.join(", ")}`
              )
            )
        deliver = { ...toolOf(front, "/deliver", mapping, issues), ...deliverArgumentsOf(front, mapping, issues) }
        if (value.from !== undefined) from = template("/from", value.from)
        if (value.replies !== undefined && (mapping.sent === undefined || !takesAnswer))
          issues.push(front.issueAt("/replies", "replies needs deliver.sent and output.schema"))
        else if (value.replies !== undefined) {
          const written = value.replies as Record<string, unknown>
          const read = readReplies(written)
          for (const issue of read.issues) issues.push(front.issueAt(issue.pointer, issue.message))
          if (read.replies !== undefined) replies = { written, block: read.replies }
        }
        if (value.reply !== undefined && !takesAnswer) issues.push(front.issueAt("/reply", "reply needs output.schema"))
        else if (takesAnswer) {
          const read =
            value.reply === undefined
              ? { rule: defaultReplyRule(output.schema), issues: [] }
              : readReplyRule(value.reply, output.schema)
          for (const issue of read.issues) issues.push(front.issueAt(issue.pointer, issue.message))
          replyRule = read.rule ?? null
        }
      } else
        issues.push(
          front.issueAt(
            "/deliver",
            `expected agent, or a mapping with the keys ${deliverKeys.join(", ")}, found ${describeValue(deliverValue)}`
          )
        )
      const body = message()
      if (issues.length > 0) return Either.left(finishIssues(issues))
      return Either.right({
        document: documentOf(value, input, output, true, false),
        ...(to === undefined ? {} : { to }),
        ...(from === undefined ? {} : { from }),
        ...(body === undefined ? {} : { message: body }),
        ...(expiresMillis === undefined ? {} : { expiresMillis }),
        ...(deliver === undefined ? {} : { deliver }),
        ...(replies === undefined ? {} : { replies }),
        replyRule: replies === undefined ? null : replyRule,
        ...(takesAnswer ? { answerSchema: output.schema } : {})
      })
    }
  )

const documentOf = (
  value: Record<string, unknown>,
  input: Record<string, unknown>,
  output: Record<string, unknown>,
  finishesLater: boolean,
  callsTools: boolean
): ReadDocument => ({
  ...(typeof value.description === "string" ? { description: value.description } : {}),
  ...(input.schema === undefined ? {} : { inputSchema: input.schema }),
  ...(output.schema === undefined ? {} : { outputSchema: output.schema }),
  ...(value.page === undefined ? {} : { page: value.page }),
  warnings: [],
  finishesLater,
  callsTools
})
