import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import ts from "typescript"

/** The parts of TypeScript's ES library the sandbox has: ES2023 and the later pieces QuickJS implements. */
const libraryFiles = [
  "es5",
  "es2015.core",
  "es2015.collection",
  "es2015.iterable",
  "es2015.generator",
  "es2015.proxy",
  "es2015.reflect",
  "es2015.symbol",
  "es2015.symbol.wellknown",
  "es2016.array.include",
  "es2017.object",
  "es2017.string",
  "es2017.typedarrays",
  "es2017.date",
  "es2018.regexp",
  "es2019.array",
  "es2019.object",
  "es2019.string",
  "es2019.symbol",
  "es2020.bigint",
  "es2020.string",
  "es2020.symbol.wellknown",
  "es2021.string",
  "es2022.array",
  "es2022.error",
  "es2022.object",
  "es2022.string",
  "es2022.regexp",
  "es2023.array",
  "es2023.collection",
  "es2024.collection",
  "es2024.object",
  "es2024.string",
  "es2024.regexp",
  "esnext.collection",
  "esnext.iterator"
]

/** Globals the sandbox removes (function-formats.md §1.9), as declarations to drop. */
const absentGlobals = new Set([
  "eval",
  "Function",
  "Promise",
  "WeakRef",
  "FinalizationRegistry",
  "SharedArrayBuffer",
  "Atomics",
  "Intl"
])

/** Members the sandbox removes from the library's interfaces. */
const absentMembers: Readonly<Record<string, ReadonlySet<string>>> = {
  Math: new Set(["random"]),
  Date: new Set([
    "getFullYear",
    "getMonth",
    "getDate",
    "getDay",
    "getHours",
    "getMinutes",
    "getSeconds",
    "getMilliseconds",
    "getTimezoneOffset",
    "setFullYear",
    "setMonth",
    "setDate",
    "setHours",
    "setMinutes",
    "setSeconds",
    "setMilliseconds",
    "toString",
    "toDateString",
    "toTimeString",
    "toLocaleString",
    "toLocaleDateString",
    "toLocaleTimeString"
  ])
}

const declaredName = (statement: ts.Statement): string | undefined => {
  if (ts.isVariableStatement(statement)) {
    const [declaration] = statement.declarationList.declarations
    return declaration !== undefined && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined
  }
  if (ts.isFunctionDeclaration(statement) || ts.isModuleDeclaration(statement)) return statement.name?.text
  return undefined
}

/** Whether an interface member is one the sandbox lacks: a removed method, `Date()` or a local-time constructor. */
const absentMember = (owner: string, member: ts.TypeElement): boolean => {
  if (owner === "DateConstructor") {
    return (
      ts.isCallSignatureDeclaration(member) ||
      (ts.isConstructSignatureDeclaration(member) && member.parameters.length > 1)
    )
  }
  const names = absentMembers[owner]
  return names !== undefined && member.name !== undefined && ts.isIdentifier(member.name) && names.has(member.name.text)
}

/** Cuts what the sandbox lacks out of one library file, and opens `declare global` blocks of module-shaped files. */
const strip = (text: string): string => {
  const file = ts.createSourceFile("lib.d.ts", text, ts.ScriptTarget.ESNext, true)
  const cuts: Array<readonly [number, number]> = []
  const visit = (statements: ts.NodeArray<ts.Statement>) => {
    for (const statement of statements) {
      const name = declaredName(statement)
      if (ts.isExportDeclaration(statement) || (name !== undefined && absentGlobals.has(name))) {
        cuts.push([statement.getFullStart(), statement.end])
      } else if (
        ts.isModuleDeclaration(statement) &&
        name === "global" &&
        statement.body !== undefined &&
        ts.isModuleBlock(statement.body)
      ) {
        cuts.push(
          [statement.getFullStart(), statement.body.statements.pos],
          [statement.body.statements.end, statement.end]
        )
        visit(statement.body.statements)
      } else if (ts.isInterfaceDeclaration(statement)) {
        for (const member of statement.members) {
          if (absentMember(statement.name.text, member)) cuts.push([member.getFullStart(), member.end])
        }
      }
    }
  }
  visit(file.statements)
  let kept = text
  for (const [start, end] of cuts.toSorted((left, right) => right[0] - left[0]))
    kept = kept.slice(0, start) + kept.slice(end)
  return kept.replace(/^\/\/\/ <reference lib=.*$/gm, "")
}

/**
 * The declaration file of exactly the sandbox's library: TypeScript's own ES library files (ES2023, the
 * collection, object and iterator pieces after it) with every global and member the sandbox removes cut out,
 * so a program that names one gets the compiler's "cannot find name" or "property does not exist".
 */
export const sandboxLibrary = (): string => {
  const folder = dirname(ts.getDefaultLibFilePath({}))
  return libraryFiles
    .map((name) => join(folder, `lib.${name}.d.ts`))
    .filter((path) => existsSync(path))
    .map((path) => strip(readFileSync(path, "utf8")))
    .join("\n")
}
