import { dispatch, Ledger, type Rejection } from "@runledger/core"
import { Effect, Either } from "effect"
import { listCommentsTool } from "../../src/comments/operations/listComments.js"
import { resolveCommentTool } from "../../src/comments/operations/resolveComment.js"
import { makeRuntime } from "../runtimeFixture.js"

/** A runtime with the playbooks finance and sales, and helpers to call the comment operations as a key. */
export const makeCommentsFixture = async (settings: Parameters<typeof makeRuntime>[0] = {}) => {
  const fixture = makeRuntime({
    studioOrigin: "https://studio.on.auto",
    publicUrl: "https://runtime.example.com",
    ...settings
  })
  for (const playbook of ["finance", "sales", "archive"])
    await fixture.call("full", "create_playbook", { playbook, name: playbook })
  const answer = async (result: Promise<Either.Either<{ output: unknown; status: number }, Rejection>>) => {
    const settled = await result
    if (Either.isLeft(settled)) throw new Error(`refused: ${JSON.stringify(settled.left)}`)
    return settled.right
  }
  const refusal = async (result: Promise<Either.Either<unknown, Rejection>>) => {
    const settled = await result
    if (Either.isRight(settled)) throw new Error(`expected a refusal, got ${JSON.stringify(settled.right)}`)
    return settled.left
  }
  /** Calls an operation in a playbook, or in the org where `playbook` is null. */
  const call = (operation: string, input: unknown, playbook: string | null = "finance", key = "full") =>
    fixture.call(key, operation, input, playbook === null ? {} : { playbook })
  /** Calls the MCP tool of `/mcp` (list_comments or resolve_comment with `playbook` optional). */
  const tool = async (name: "list_comments" | "resolve_comment", input: unknown, key = "full") => {
    const caller = await fixture.callerOf(key)
    const operation = name === "list_comments" ? listCommentsTool : resolveCommentTool
    return fixture.runtime.runPromise(
      Effect.either(dispatch({ operation, caller, input, origin: "http://127.0.0.1:4100" }))
    )
  }
  const facts = async () =>
    (
      await fixture.runtime.runPromise(
        Effect.flatMap(Ledger, (ledger) => ledger.readAll({ direction: "forward", limit: 100_000 }))
      )
    ).map((positioned) => positioned.fact)
  const commentFacts = async () => (await facts()).filter((fact) => fact.type.startsWith("comment_"))
  /** Makes a comment and answers it. */
  const make = async (input: Record<string, unknown>, playbook: string | null = "finance", key = "full") =>
    (await answer(call(playbook === null ? "make_comment_in_org" : "make_comment", input, playbook, key))).output as any
  return { ...fixture, call, tool, answer, refusal, facts, commentFacts, make }
}

export type CommentsFixture = Awaited<ReturnType<typeof makeCommentsFixture>>
