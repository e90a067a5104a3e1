import ts from "typescript"
import type { ProgramIssue } from "../ports/Sandbox.js"
import { paddedSource } from "./prepareProgram.js"
import type { CheckJob } from "./protocol.js"
import { sandboxLibrary } from "./sandboxLibrary.js"

/** The most assignments to variables one function may hold (function-formats.md §4.2). */
export const maxAssignments = 500

/** The words of the structural rules (function-formats.md §4.2). */
export const ruleWords = {
  modules: "the program may read only its argument; no modules, no generated code",
  topLevel: "top level holds only types and exported functions",
  synchronous: "the function must answer synchronously",
  assignments: `at most ${maxAssignments} assignments per function; keep values in a structure or loop`,
  decorators: "decorators are not erasable syntax; remove them",
  noDefault: "the module needs a default export: export default function (input: Input): Output { … }",
  signature: "the default export must be a function (input: Input) => Output"
} as const

const options: ts.CompilerOptions = {
  strict: true,
  exactOptionalPropertyTypes: true,
  erasableSyntaxOnly: true,
  noLib: true,
  noEmit: true,
  skipLibCheck: true,
  isolatedModules: true,
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  allowImportingTsExtensions: true,
  types: []
}

const files = { library: "/sandbox.d.ts", types: "/types.d.ts", main: "/main.ts", entry: "/entry.ts" } as const
const entryText = `import main from "./main.ts";\nconst entry: (input: Input) => Output = main;\nexport { entry };\n`

const isFunctionLike = (node: ts.Node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isAccessor(node)

const isVariableTarget = (node: ts.Expression): boolean => {
  let target = node
  while (ts.isParenthesizedExpression(target)) target = target.expression
  return ts.isIdentifier(target) || ts.isObjectLiteralExpression(target) || ts.isArrayLiteralExpression(target)
}

const isAssignment = (node: ts.Node): boolean =>
  (ts.isBinaryExpression(node) &&
    node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    node.operatorToken.kind <= ts.SyntaxKind.LastAssignment &&
    isVariableTarget(node.left)) ||
  ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
    (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken) &&
    isVariableTarget(node.operand))

const modifierOf = (node: ts.Node, kind: ts.SyntaxKind) =>
  ts.canHaveModifiers(node) ? ts.getModifiers(node)?.find((modifier) => modifier.kind === kind) : undefined

const isCallTo = (node: ts.Node, names: ReadonlyArray<string>) =>
  (ts.isCallExpression(node) || ts.isNewExpression(node)) &&
  ts.isIdentifier(node.expression) &&
  names.includes(node.expression.text)

/** Whether a top-level statement is one the module may hold: a type, an exported function, an export. */
const allowedAtTop = (statement: ts.Statement) =>
  ts.isInterfaceDeclaration(statement) ||
  ts.isTypeAliasDeclaration(statement) ||
  ts.isEmptyStatement(statement) ||
  ts.isExportAssignment(statement) ||
  ts.isImportDeclaration(statement) ||
  ts.isImportEqualsDeclaration(statement) ||
  (ts.isExportDeclaration(statement) && statement.moduleSpecifier === undefined) ||
  (ts.isFunctionDeclaration(statement) && modifierOf(statement, ts.SyntaxKind.ExportKeyword) !== undefined)

/** The structural rules of §4.2, as issues at the node that breaks each. */
const structuralIssues = (file: ts.SourceFile, at: (position: number, message: string) => ProgramIssue) => {
  const issues: Array<ProgramIssue> = []
  const flag = (node: ts.Node, message: string) => issues.push(at(node.getStart(file), message))
  for (const statement of file.statements) {
    if (!allowedAtTop(statement)) flag(statement, ruleWords.topLevel)
    if (ts.isFunctionDeclaration(statement) && statement.asteriskToken !== undefined)
      flag(statement, ruleWords.synchronous)
  }
  const counts: Array<number> = [0]
  const visit = (node: ts.Node) => {
    if (
      ts.isImportDeclaration(node) ||
      ts.isImportEqualsDeclaration(node) ||
      ts.isMetaProperty(node) ||
      (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) ||
      (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) ||
      isCallTo(node, ["require", "eval", "Function"])
    ) {
      flag(node, ruleWords.modules)
    }
    const declared = modifierOf(node, ts.SyntaxKind.DeclareKeyword)
    if (declared !== undefined) issues.push(at(declared.getStart(file), ruleWords.modules))
    const async = modifierOf(node, ts.SyntaxKind.AsyncKeyword)
    if (async !== undefined) issues.push(at(async.getStart(file), ruleWords.synchronous))
    if (ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier !== undefined)) {
      flag(node, ruleWords.synchronous)
    }
    if (ts.isDecorator(node)) flag(node, ruleWords.decorators)
    if (isAssignment(node) && ++counts[counts.length - 1]! === maxAssignments + 1) flag(node, ruleWords.assignments)
    if (isFunctionLike(node)) {
      counts.push(0)
      ts.forEachChild(node, visit)
      counts.pop()
    } else ts.forEachChild(node, visit)
  }
  ts.forEachChild(file, visit)
  return issues
}

/**
 * Makes the save-time checker (function-formats.md §4.2): TypeScript in strict mode with
 * `exactOptionalPropertyTypes` and `erasableSyntaxOnly`, against the program's `Input`/`Output`/`Json`
 * declarations and the sandbox's own library, plus the structural rules. Each finding is an issue at its
 * document line. The library is parsed once and shared by every check.
 */
export const makeChecker = () => {
  const library = ts.createSourceFile(files.library, sandboxLibrary(), ts.ScriptTarget.ES2023)
  return (job: CheckJob): ReadonlyArray<ProgramIssue> => {
    const texts = new Map<string, string>([
      [files.types, job.declarations],
      [files.main, paddedSource(job.program)],
      [files.entry, entryText]
    ])
    const parsed = new Map<string, ts.SourceFile>()
    const host: ts.CompilerHost = {
      getSourceFile: (name) => {
        if (name === files.library) return library
        const text = texts.get(name)
        if (text === undefined) return undefined
        const file = parsed.get(name) ?? ts.createSourceFile(name, text, ts.ScriptTarget.ES2023, true)
        parsed.set(name, file)
        return file
      },
      getDefaultLibFileName: () => files.library,
      writeFile: () => undefined,
      getCurrentDirectory: () => "/",
      getCanonicalFileName: (name) => name,
      useCaseSensitiveFileNames: () => true,
      getNewLine: () => "\n",
      fileExists: (name) => name === files.library || texts.has(name),
      readFile: (name) => texts.get(name),
      directoryExists: (name) => name === "/"
    }
    const program = ts.createProgram({ rootNames: Object.values(files), options, host })
    const main = program.getSourceFile(files.main)!
    const at = (position: number, message: string): ProgramIssue => {
      const { line, character } = main.getLineAndCharacterOfPosition(position)
      const lineStart = main.getPositionOfLineAndCharacter(line, 0)
      return { line: line + 1, column: [...main.text.slice(lineStart, lineStart + character)].length + 1, message }
    }
    const words = (diagnostic: ts.Diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")
    const found = [...program.getSyntacticDiagnostics(main), ...program.getSemanticDiagnostics(main)].map(
      (diagnostic) => at(diagnostic.start ?? 0, words(diagnostic))
    )
    const exported = main.statements.find(
      (statement) =>
        ts.isExportAssignment(statement) || modifierOf(statement, ts.SyntaxKind.DefaultKeyword) !== undefined
    )
    const entry = program.getSemanticDiagnostics(program.getSourceFile(files.entry))
    const signature = entry.map((diagnostic) =>
      exported === undefined
        ? at(main.getPositionOfLineAndCharacter(job.program.firstLine - 1, 0), ruleWords.noDefault)
        : at(exported.getStart(main), `${ruleWords.signature}: ${words(diagnostic)}`)
    )
    const declarations = program
      .getSemanticDiagnostics(program.getSourceFile(files.types))
      .map((diagnostic) => at(0, `the types made from the schemas do not compile: ${words(diagnostic)}`))
    return [...found, ...signature, ...declarations, ...structuralIssues(main, at)]
  }
}
