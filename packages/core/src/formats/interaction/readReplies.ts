import { describeValue } from "../document/describeValue.js"
import { toolNamePattern } from "../document/toolNames.js"
import type { ArgumentTemplate } from "../lookup/readLookup.js"
import { argumentsTooLargeAtSave } from "./argumentsAtSave.js"
import { argumentTemplates } from "./argumentTemplates.js"
import { checkTemplate } from "./checkTemplate.js"
import { durationMillis } from "./isoDuration.js"

/** A `with` block as written, and its templates by pointer. */
export interface WrittenArguments {
  readonly value: Record<string, unknown>
  readonly templates: ReadonlyMap<string, ArgumentTemplate>
}

/** How replies are read back from the conversation a tool delivered into (function-formats.md §3.5), as read. */
export interface RepliesBlock {
  /** The conversation key's template, over `to` and `sent`: one read serves every open request with that key. */
  readonly conversation: ArgumentTemplate
  /** The tool of the delivery's server that lists what came since a point. */
  readonly tool: string
  readonly with: WrittenArguments
  readonly read: {
    readonly list: string
    readonly order: "oldest_first" | "newest_first"
    readonly each: { readonly id: string; readonly sender: string; readonly text: string; readonly to?: string }
  }
  /** The floor between two reads of the conversation. */
  readonly waitMillis: number
  /** How the answerer is told why a reply was refused: a tool of the delivery's server (its own by default). */
  readonly tell?: { readonly tool?: string; readonly with?: WrittenArguments }
}

/** One problem of a `replies` block: the pointer under `/replies` and the words. */
export interface RepliesIssue {
  readonly pointer: string
  readonly message: string
}

/** The variables of the conversation key, `replies.with` and `tell.with` (§3.5). */
const conversationVariables = ["to", "sent"] as const
const readVariables = ["to", "sent", "conversation", "since"] as const
const tellVariables = ["to", "sent", "message"] as const

/** The default conversation key: the conversation the message landed in. */
const defaultConversation = "{{ sent.conversation }}"

/** The floor between two reads: `PT5S` to `PT1H`, `PT5S` by default. */
const waitBounds = { least: 5_000, most: 3_600_000 }

/**
 * Reads a `replies` block (§3.5); the reader of the front matter already refused unknown keys and missing required
 * ones, `tell` among them (ADR 0198). Every issue at once, or the block.
 */
export const readReplies = (
  value: Record<string, unknown>
): { readonly replies?: RepliesBlock; readonly issues: ReadonlyArray<RepliesIssue> } => {
  const issues: Array<RepliesIssue> = []
  const template = (pointer: string, text: unknown, variables: ReadonlyArray<string>) => {
    if (typeof text !== "string" || text.trim() === "") {
      issues.push({ pointer, message: `expected a template, found ${describeValue(text)}` })
      return undefined
    }
    const checked = checkTemplate(text, variables)
    for (const issue of checked.issues)
      issues.push({ pointer, message: `line ${issue.line} of the template: ${issue.message}` })
    return checked.template === undefined ? undefined : { text, template: checked.template }
  }
  const argumentsAt = (pointer: string, written: unknown, variables: ReadonlyArray<string>) => {
    const mapping = written ?? {}
    if (typeof mapping !== "object" || mapping === null || Array.isArray(mapping)) {
      issues.push({ pointer, message: `expected a mapping of the tool's arguments, found ${describeValue(written)}` })
      return { value: {}, templates: new Map() }
    }
    const found = argumentTemplates(mapping, pointer, variables)
    issues.push(...found.issues)
    const tooLarge = found.issues.length > 0 ? undefined : argumentsTooLargeAtSave(mapping, found.templates, pointer)
    if (tooLarge !== undefined) issues.push({ pointer, message: tooLarge })
    return { value: mapping as Record<string, unknown>, templates: found.templates }
  }
  const toolAt = (pointer: string, tool: unknown) => {
    if (typeof tool !== "string" || !toolNamePattern.test(tool))
      issues.push({
        pointer,
        message: `expected a tool name of 1 to 128 letters, digits, _, - and ., found ${describeValue(tool)}`
      })
    return String(tool)
  }
  const pointerAt = (pointer: string, written: unknown) => {
    if (typeof written !== "string" || !written.startsWith("/"))
      issues.push({ pointer, message: `expected a JSON pointer that begins with /, found ${describeValue(written)}` })
    return String(written)
  }

  const conversation = template(
    "/replies/conversation",
    value.conversation ?? defaultConversation,
    conversationVariables
  )
  const tool = toolAt("/replies/tool", value.tool)
  const withArguments = argumentsAt("/replies/with", value.with, readVariables)
  const read = (value.read ?? {}) as Record<string, unknown>
  const each = (read.each ?? {}) as Record<string, unknown>
  const list = pointerAt("/replies/read/list", read.list)
  const order = read.order
  if (order !== "oldest_first" && order !== "newest_first")
    issues.push({
      pointer: "/replies/read/order",
      message: `expected oldest_first or newest_first, found ${describeValue(order)}`
    })
  const id = pointerAt("/replies/read/each/id", each.id)
  const sender = pointerAt("/replies/read/each/sender", each.sender)
  const text = pointerAt("/replies/read/each/text", each.text)
  const to = each.to === undefined ? undefined : pointerAt("/replies/read/each/to", each.to)
  const waitText = value.wait ?? "PT5S"
  const waitMillis = typeof waitText === "string" ? durationMillis(waitText) : undefined
  if (waitMillis === undefined || waitMillis < waitBounds.least || waitMillis > waitBounds.most)
    issues.push({
      pointer: "/replies/wait",
      message: `expected an ISO 8601 duration from PT5S to PT1H, found ${describeValue(waitText)}`
    })
  const tell = value.tell as Record<string, unknown> | undefined
  const tellTool = tell?.tool === undefined ? undefined : toolAt("/replies/tell/tool", tell.tool)
  const tellWith = tell?.with === undefined ? undefined : argumentsAt("/replies/tell/with", tell.with, tellVariables)
  if (issues.length > 0 || conversation === undefined) return { issues }
  return {
    issues,
    replies: {
      conversation,
      tool,
      with: withArguments,
      read: {
        list,
        order: order as RepliesBlock["read"]["order"],
        each: { id, sender, text, ...(to === undefined ? {} : { to }) }
      },
      waitMillis: waitMillis!,
      ...(tell === undefined
        ? {}
        : {
            tell: {
              ...(tellTool === undefined ? {} : { tool: tellTool }),
              ...(tellWith === undefined ? {} : { with: tellWith })
            }
          })
    }
  }
}
