import { blankSourceFile } from "ts-blank-space"
import ts from "typescript"
import type { SandboxProgram } from "../ports/Sandbox.js"
import { entryName } from "./sandboxPrelude.js"

/** A program made ready to run, or the words of why it cannot run. */
export type PreparedProgram =
  | { readonly _tag: "Script"; readonly script: string }
  | { readonly _tag: "Refused"; readonly detail: string }

/** The program's text padded with blank lines, so its lines are the document's lines. */
export const paddedSource = (program: SandboxProgram): string =>
  "\n".repeat(Math.max(0, program.firstLine - 1)) + program.source

interface Edit {
  readonly start: number
  readonly end: number
  readonly text: string
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === kind)

const modifierEnd = (node: ts.Node, kind: ts.SyntaxKind) =>
  (ts.getModifiers(node as ts.HasModifiers) ?? []).find((modifier) => modifier.kind === kind)!.end

/**
 * Turns a TypeScript module into a script QuickJS evaluates to a function of one object: types are blanked out
 * in place (`ts-blank-space`, so every line stays where it was), `export` keywords are blanked, and the default
 * export is assigned to the object's `main`. Nothing else changes, so error lines are document lines.
 */
export const prepareProgram = (program: SandboxProgram): PreparedProgram => {
  const padded = paddedSource(program)
  const file = ts.createSourceFile(programFileName, padded, ts.ScriptTarget.ES2023, true, ts.ScriptKind.TS)
  const refusals: Array<string> = []
  const blanked = blankSourceFile(file, (node) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file))
    refusals.push(`line ${line + 1} holds TypeScript that cannot be erased (${ts.SyntaxKind[node.kind]})`)
  })
  const edits: Array<Edit> = []
  const appended: Array<string> = []
  const main = `${entryName}.main =`
  for (const statement of file.statements) {
    const start = statement.getStart(file)
    if (ts.isImportDeclaration(statement) || ts.isImportEqualsDeclaration(statement)) {
      if (blanked.slice(start, statement.end).trim() !== "") refusals.push("the program may not import modules")
    } else if (ts.isExportAssignment(statement)) {
      edits.push({ start, end: statement.expression.getStart(file), text: `${main} ` })
    } else if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      if (statement.moduleSpecifier !== undefined) refusals.push("the program may not import modules")
      edits.push({ start, end: statement.end, text: "" })
      if (statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
        for (const element of statement.exportClause.elements) {
          if (element.name.text === "default")
            appended.push(`${main} ${(element.propertyName ?? element.name).getText(file)};`)
        }
      }
    } else if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) {
      const declaration = statement as ts.FunctionDeclaration | ts.ClassDeclaration
      const end = modifierEnd(statement, ts.SyntaxKind.DefaultKeyword)
      if (declaration.name === undefined) {
        edits.push({ start, end, text: main }, { start: statement.end, end: statement.end, text: ";" })
      } else {
        edits.push({ start, end, text: "" })
        appended.push(`${main} ${declaration.name.text};`)
      }
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      edits.push({ start, end: modifierEnd(statement, ts.SyntaxKind.ExportKeyword), text: "" })
    }
  }
  if (refusals.length > 0) return { _tag: "Refused", detail: refusals.join("; ") }
  let script = blanked
  for (const edit of edits.toSorted((left, right) => right.start - left.start)) {
    script = script.slice(0, edit.start) + edit.text + script.slice(edit.end)
  }
  return { _tag: "Script", script: `(function (${entryName}) { "use strict";${script}\n${appended.join("\n")}\n})` }
}

const programFileName = "main.ts"
