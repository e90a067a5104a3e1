import { jsonBytes, utf8Bytes } from "../domain/utf8Bytes.js"
import { cutText } from "../formats/cutText.js"

/** The fields shown whole only up to 2 KiB as JSON, else as their size under `<name>_bytes`. */
const largeFields = new Set([
  "input",
  "output",
  "record",
  "answer",
  "arguments",
  "result",
  "messages",
  "response",
  "tool_calls",
  "warnings",
  "issues",
  "repair",
  "data",
  "source",
  "input_schema",
  "output_schema",
  "overview",
  "diagram"
])

const shownBound = 2048
const dataBound = 4096

/** Shows a definition's own fields as the seed says: its document and schemas as sizes, 300 characters of description. */
const definitionFields = (data: Record<string, unknown>): Record<string, unknown> => {
  const shown: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data)) {
    if (key === "source" && typeof value === "string") shown.source_bytes = utf8Bytes(value)
    else if (key === "input_schema" || key === "output_schema") shown[`${key}_bytes`] = jsonBytes(value)
    else if (key === "description" && typeof value === "string") shown[key] = [...value].slice(0, 300).join("")
    else if (key === "warnings" && Array.isArray(value)) shown[key] = value.length
    else shown[key] = value
  }
  return shown
}

/** Shows a rejection's issues as their count and the first five. */
const rejectionFields = (data: Record<string, unknown>): Record<string, unknown> => {
  const { issues, ...rest } = data
  if (!Array.isArray(issues)) return data
  return { ...rest, issues_count: issues.length, issues: issues.slice(0, 5) }
}

/**
 * A rejection's detail shortened so its data fits in 4 KiB ("A rejection shows its reason, its detail shortened to
 * fit"), down to nothing but `…` when its other fields already fill the bound.
 */
const fitDetail = (data: Record<string, unknown>): Record<string, unknown> => {
  const detail = data.detail
  if (typeof detail !== "string") return data
  let bytes = utf8Bytes(detail) - (jsonBytes(data) - dataBound)
  let shown = data
  while (jsonBytes(shown) > dataBound && bytes > 0) {
    shown = { ...data, detail: cutText(detail, bytes) }
    bytes -= Math.max(16, jsonBytes(shown) - dataBound)
  }
  return jsonBytes(shown) > dataBound ? { ...data, detail: "…" } : shown
}

/**
 * A fact's data as a page shows it (HTTP "What data shows"): large values whole up to 2 KiB else as their size, a
 * rejection's detail shortened, then the largest field as its size until the whole fits in 4 KiB.
 */
export const shownData = (type: string, data: unknown): unknown => {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return data
  let shown = data as Record<string, unknown>
  if (type.startsWith("definition_")) shown = definitionFields(shown)
  if (type === "run_rejected") shown = rejectionFields(shown)
  shown = Object.fromEntries(
    Object.entries(shown).flatMap(([key, value]) =>
      largeFields.has(key) && jsonBytes(value) > shownBound ? [[`${key}_bytes`, jsonBytes(value)]] : [[key, value]]
    )
  )
  if (type === "run_rejected" && jsonBytes(shown) > dataBound) shown = fitDetail(shown)
  while (jsonBytes(shown) > dataBound) {
    const [largest] = Object.entries(shown)
      .filter(([key]) => !key.endsWith("_bytes") && !(type === "run_rejected" && key === "detail"))
      .sort((left, right) => jsonBytes(right[1]) - jsonBytes(left[1]))
    if (largest === undefined) break
    const { [largest[0]]: removed, ...rest } = shown
    shown = { ...rest, [`${largest[0]}_bytes`]: jsonBytes(removed) }
  }
  return type === "run_rejected" && shown.detail === "…"
    ? fitDetail({ ...shown, detail: (data as Record<string, unknown>).detail })
    : shown
}
