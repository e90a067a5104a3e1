import type { DefinitionType } from "../definitions/DefinitionType.js"
import { notFound, type Rejection } from "../domain/Rejection.js"

/** The definition types the directory listing leaves out (MCP seed "Endpoints"): no generation function. */
export const directoryHiddenTypes: ReadonlyArray<DefinitionType> = ["generation"]

/** The refusal of a call on the directory listing that names a type it leaves out, as `not_found`. */
export const refusedOnDirectory = (input: unknown): Rejection | undefined => {
  const type = typeof input === "object" && input !== null ? (input as { type?: unknown }).type : undefined
  return directoryHiddenTypes.includes(type as DefinitionType)
    ? notFound(`The directory listing offers no ${String(type)} functions.`)
    : undefined
}
