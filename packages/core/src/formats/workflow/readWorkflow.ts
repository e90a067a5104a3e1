import { Either } from "effect"
import type { SourceIssue } from "../DefinitionFormat.js"
import { checkText } from "../document/checkText.js"
import { describeValue } from "../document/describeValue.js"
import { finishIssues } from "../document/finishIssues.js"
import { type OutputShape, outputShapeSchemas, outputShapes } from "../document/outputShapes.js"
import { readYaml } from "../document/readYaml.js"
import { schemaIssues } from "../document/schemaIssues.js"
import { maxValueDepth } from "../jsonSchema/valueDepth.js"
import { asRecord, issueAt, placeOf, type Reading, readFields, readText } from "./Reading.js"
import { readErrorObject } from "./readError.js"
import { readRetryMapping } from "./readRetryPolicy.js"
import { readSchedule } from "./readSchedule.js"
import { readTaskList } from "./readTaskList.js"
import { readTransform } from "./readTemplate.js"
import { readTimeout, readTimeoutMapping } from "./readTimeout.js"
import { documentScope, taskScopes } from "./Scope.js"
import { maxTaskListDepth, tooDeepTaskList } from "./taskListDepth.js"
import { makeUse } from "./Use.js"
import type { WorkflowDocument } from "./WorkflowDocument.js"

/** The longest run by default, 30 days (workflow-format.md §15); a deployment may set 2 hours to 365 days. */
export const defaultMaxRunMilliseconds = 30 * 86_400_000

/** What a deployment sets that changes what a document may say. */
export interface WorkflowReadOptions {
  /** The longest run; written durations longer than it are refused (§11). */
  readonly maxRunMilliseconds?: number
}

/** The DSL versions a document may name (§1.1). */
export const dslVersions: ReadonlyArray<string> = ["1.0.0", "1.0.1", "1.0.2", "1.0.3"]

const dslName = /^[a-z0-9](-?[a-z0-9])*$/
const semanticVersion =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/

const notSupported = "not supported by this runtime"

const rootPlace = placeOf(
  ["document", "input", "output", "use", "do", "timeout", "schedule", "evaluate"],
  ["document", "do"]
)
const documentPlace = placeOf(
  ["dsl", "namespace", "name", "version", "title", "summary", "tags", "metadata"],
  ["dsl", "namespace", "name", "version"]
)
const usePlace = placeOf(["errors", "retries", "timeouts"], [], {
  authentications: notSupported,
  catalogs: notSupported,
  extensions: notSupported,
  functions: `${notSupported}; call playbook functions with call: run_definition`,
  secrets: notSupported
})
const schemaPlace = placeOf(["document", "format"], ["document"], {
  resource: "external schemas are not fetched; write the schema under document"
})

/** Reads the header (`document`): the DSL version, names and label; `tags` and `metadata` ignored (W14). */
const readHeader = (reading: Reading, value: unknown) => {
  const header = (value === undefined ? undefined : readFields(reading, value, "/document", documentPlace)) ?? {}
  if (header.dsl !== undefined && !dslVersions.includes(header.dsl as string)) {
    issueAt(
      reading,
      "/document/dsl",
      `document.dsl is one of ${dslVersions.join(", ")}, found ${describeValue(header.dsl)}`
    )
  }
  for (const key of ["namespace", "name"]) {
    const name = header[key]
    if (name !== undefined && (typeof name !== "string" || !dslName.test(name))) {
      issueAt(
        reading,
        `/document/${key}`,
        `document.${key} is lowercase letters and digits, joined by single hyphens; found ${describeValue(name)}`
      )
    }
  }
  if (header.version !== undefined && (typeof header.version !== "string" || !semanticVersion.test(header.version))) {
    issueAt(
      reading,
      "/document/version",
      `document.version is a semantic version such as '2.1.0' (quoted), found ${describeValue(header.version)}`
    )
  }
  for (const key of ["title", "summary"]) {
    if (header[key] !== undefined) readText(reading, header[key], `/document/${key}`)
  }
  for (const key of ["tags", "metadata"]) {
    if (header[key] !== undefined && asRecord(header[key]) === undefined) {
      issueAt(reading, `/document/${key}`, `expected a mapping, found ${describeValue(header[key])}`)
    }
  }
  const text = (key: string) => (typeof header[key] === "string" ? (header[key] as string) : undefined)
  return {
    dsl: text("dsl"),
    namespace: text("namespace"),
    name: text("name"),
    version: text("version"),
    title: text("title"),
    summary: text("summary")
  }
}

/** Reads an inline JSON Schema under `input.schema` or `output.schema` (§1.1), checked as function schemas are. */
const readSchema = (reading: Reading, value: unknown, pointer: string): unknown => {
  const schema = readFields(reading, value, pointer, schemaPlace)
  if (schema?.format !== undefined && schema.format !== "json") {
    issueAt(
      reading,
      `${pointer}/format`,
      `schemas are JSON Schema: write format: json or leave it out, found ${describeValue(schema.format)}`
    )
  }
  if (schema?.document === undefined) return undefined
  const before = reading.issues.length
  reading.issues.push(...schemaIssues(reading.yaml.issueAt, `${pointer}/document`, schema.document))
  return reading.issues.length === before ? schema.document : undefined
}

/** Checks the entries of `use.errors`, `use.retries` and `use.timeouts` are mappings keyed by name. */
const checkUseSections = (reading: Reading, use: Readonly<Record<string, unknown>>) => {
  for (const section of ["errors", "retries", "timeouts"]) {
    const entries = use[section]
    if (entries === undefined) continue
    const record = asRecord(entries)
    if (record === undefined)
      issueAt(reading, `/use/${section}`, `expected a mapping of names to entries, found ${describeValue(entries)}`)
  }
}

const readDocument = (reading: Reading, root: Readonly<Record<string, unknown>>): WorkflowDocument | undefined => {
  const header = readHeader(reading, root.document)
  const use = root.use === undefined ? undefined : readFields(reading, root.use, "/use", usePlace)
  if (use !== undefined) checkUseSections(reading, use)
  const named = makeUse(use)
  const evaluate =
    root.evaluate === undefined
      ? {}
      : (readFields(reading, root.evaluate, "/evaluate", placeOf(["language", "mode"])) ?? {})
  if (evaluate.language !== undefined && evaluate.language !== "typescript") {
    issueAt(
      reading,
      "/evaluate/language",
      `the only language is typescript; jq and others are not supported, found ${describeValue(evaluate.language)}`
    )
  }
  if (evaluate.mode !== undefined && evaluate.mode !== "strict") {
    issueAt(
      reading,
      "/evaluate/mode",
      `the only mode is strict, so a failing expression fails; found ${describeValue(evaluate.mode)}`
    )
  }
  const input =
    root.input === undefined ? {} : (readFields(reading, root.input, "/input", placeOf(["schema", "from"])) ?? {})
  const output =
    root.output === undefined
      ? {}
      : (readFields(reading, root.output, "/output", placeOf(["as", "schema", "shape"])) ?? {})
  const inputSchema = input.schema === undefined ? undefined : readSchema(reading, input.schema, "/input/schema")
  const writtenSchema = output.schema === undefined ? undefined : readSchema(reading, output.schema, "/output/schema")
  const shape = output.shape
  if (shape !== undefined && !outputShapes.includes(shape as OutputShape)) {
    issueAt(reading, "/output/shape", `expected one of ${outputShapes.join(", ")}, found ${describeValue(shape)}`)
  }
  if (shape !== undefined && output.schema !== undefined) {
    issueAt(reading, "/output/shape", "write output.shape or output.schema, not both")
  }
  const namedShape = outputShapes.includes(shape as OutputShape) ? (shape as OutputShape) : undefined
  const outputSchema = writtenSchema ?? (namedShape === undefined ? undefined : outputShapeSchemas[namedShape])
  const inputFrom =
    input.from === undefined ? undefined : readTransform(reading, input.from, "/input/from", documentScope)
  const outputAs = output.as === undefined ? undefined : readTransform(reading, output.as, "/output/as", documentScope)
  const timeout =
    root.timeout === undefined ? undefined : readTimeout(reading, named, root.timeout, "/timeout", documentScope)
  const triggers = root.schedule === undefined ? [] : readSchedule(reading, root.schedule)
  const tasks =
    root.do === undefined ? [] : readTaskList(reading, named, root.do, "/do", { added: [], inBranch: false })
  const own = taskScopes(["$error"])
  for (const entry of named.unused("errors")) readErrorObject(reading, entry.value, entry.pointer, own.body, entry.name)
  for (const entry of named.unused("retries"))
    readRetryMapping(reading, entry.value, entry.pointer, own.body, entry.name)
  for (const entry of named.unused("timeouts"))
    readTimeoutMapping(reading, entry.value, entry.pointer, own.before, entry.name)
  const { dsl, namespace, name, version, title, summary } = header
  if (dsl === undefined || namespace === undefined || name === undefined || version === undefined) return undefined
  const description = summary ?? title
  return {
    dsl,
    namespace,
    name,
    version,
    ...(title === undefined ? {} : { title }),
    ...(summary === undefined ? {} : { summary }),
    ...(description === undefined ? {} : { description }),
    ...(inputSchema === undefined ? {} : { inputSchema }),
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(namedShape === undefined ? {} : { shape: namedShape }),
    ...(inputFrom === undefined ? {} : { inputFrom }),
    ...(outputAs === undefined ? {} : { outputAs }),
    ...(timeout === undefined ? {} : { timeout }),
    triggers,
    do: tasks
  }
}

/**
 * Reads and checks a workflow document at save (workflow-format.md §2, §13): the text's rules, YAML 1.2 (core
 * schema) without anchors, aliases, tags or repeated keys, depth first (task lists 64, values 512), then the DSL
 * 1.0 subset and the runtime's policy, every expression for syntax and names and every duration. Each issue
 * sits at its YAML line and column with the JSON pointer of the value; at most 20 are shown.
 */
export const readWorkflow = (
  source: string,
  options: WorkflowReadOptions = {}
): Either.Either<WorkflowDocument, ReadonlyArray<SourceIssue>> => {
  const textIssue = checkText(source)
  if (textIssue !== undefined) return Either.left([textIssue])
  const tooDeepWords = `the document nests deeper than ${maxValueDepth} levels`
  const read = Either.flatMap(
    readYaml(source, { start: 0, end: source.length, place: "value", maxDepth: maxValueDepth, tooDeep: tooDeepWords }),
    (yaml): Either.Either<WorkflowDocument, ReadonlyArray<SourceIssue>> => {
      if (yaml.tooDeep) return Either.left(yaml.issues.filter((issue) => issue.message === tooDeepWords))
      const deepList = tooDeepTaskList(yaml.value)
      if (deepList !== undefined) {
        return Either.left([yaml.issueAt(deepList, `task lists nest deeper than ${maxTaskListDepth} levels here`)])
      }
      const reading: Reading = {
        source,
        yaml,
        issues: [...yaml.issues],
        maxRunMilliseconds: options.maxRunMilliseconds ?? defaultMaxRunMilliseconds
      }
      const root = yaml.empty ? undefined : asRecord(yaml.value)
      if (root === undefined) {
        return Either.left([
          yaml.issueAt("", `a workflow document is a mapping with document and do, found ${describeValue(yaml.value)}`)
        ])
      }
      readFields(reading, root, "", rootPlace)
      const document = readDocument(reading, root)
      return reading.issues.length > 0 || document === undefined ? Either.left(reading.issues) : Either.right(document)
    }
  )
  return Either.mapLeft(read, finishIssues)
}
