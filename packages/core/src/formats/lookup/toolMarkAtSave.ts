import { Effect, Either, Option } from "effect"
import type { Rejection } from "../../domain/Rejection.js"
import type { ToolServers } from "../../ports/ToolServers.js"
import { findListed } from "../../tools/offeredTool.js"
import { toolServerFailed } from "../../tools/toolRefusals.js"
import type { SaveFindings } from "../DefinitionFormat.js"
import { readLookup } from "./readLookup.js"

/**
 * The mark a save saw on a lookup's tool, once its checks passed, for the version to record (decision F5, ADR
 * 0332): the tool as its server lists it now (the listing the checks just read). A lookup of runs records none.
 */
export const toolMarkAtSave = (
  source: string,
  port: Option.Option<ToolServers["Type"]>
): Effect.Effect<SaveFindings, Rejection> =>
  Effect.gen(function* () {
    const read = readLookup(source)
    if (Either.isLeft(read) || read.right.call === undefined || Option.isNone(port)) return {}
    const { server, tool } = read.right.call
    const listed = yield* Effect.mapError(findListed(port.value, server, tool), toolServerFailed)
    return listed === undefined ? {} : { toolMark: { server, tool, mark: listed.mark, marked_by: listed.markedBy } }
  })
