// biome-ignore-all lint/suspicious/noTemplateCurlyInString: workflow expressions are written ${ … } inside plain strings
import { blankSourceFile } from "ts-blank-space"
import ts from "typescript"
import type { Expression } from "./Expression.js"
import { issueAt, type Reading } from "./Reading.js"
import type { Scope } from "./Scope.js"
import { absentMembers, sandboxGlobals } from "./sandboxGlobals.js"
import { valueOffset } from "./valueOffset.js"

/** Where an expression is written: the string value at `pointer`, its code starting at `index` of that string. */
export interface ExpressionPlace {
  readonly pointer: string
  readonly text: string
  readonly index: number
}

/** Records an issue at the character `at` of an expression's code, placed in the YAML source. */
const codeIssue = (reading: Reading, place: ExpressionPlace, at: number, message: string): void => {
  const range = reading.yaml.scalarRange(place.pointer)
  if (range === undefined) {
    issueAt(reading, place.pointer, message)
    return
  }
  const raw = reading.source.slice(range[0], range[1])
  const offset = valueOffset(raw, place.text, place.index + at)
  reading.issues.push({ ...reading.yaml.positionAt(range[0] + offset), pointer: place.pointer, message })
}

const options: ts.CompilerOptions = { noLib: true, noResolve: true, types: [], target: ts.ScriptTarget.ES2023 }

/** The syntax errors of a parsed file, as the compiler reports them. */
const syntaxErrors = (file: ts.SourceFile): ReadonlyArray<ts.Diagnostic> => {
  const host: ts.CompilerHost = {
    getSourceFile: (name) => (name === file.fileName ? file : undefined),
    getDefaultLibFileName: () => "lib.d.ts",
    writeFile: () => undefined,
    getCurrentDirectory: () => "/",
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
    fileExists: (name) => name === file.fileName,
    readFile: () => undefined
  }
  return ts.createProgram({ rootNames: [file.fileName], options, host }).getSyntacticDiagnostics(file)
}

const isFunctionLike = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isAccessor(node)

/** The names a binding (a name or a destructuring pattern) declares. */
const boundNames = (name: ts.BindingName): ReadonlyArray<string> =>
  ts.isIdentifier(name)
    ? [name.text]
    : name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : boundNames(element.name)))

/** The names a function, class or catch clause declares for its inside: parameters and every declaration in it. */
const declaredIn = (scope: ts.Node): ReadonlyArray<string> => {
  const names: Array<string> = []
  if (isFunctionLike(scope)) {
    for (const parameter of scope.parameters) names.push(...boundNames(parameter.name))
    if (!ts.isArrowFunction(scope)) names.push("arguments")
  }
  if ((ts.isFunctionExpression(scope) || ts.isClassExpression(scope)) && scope.name !== undefined) {
    names.push(scope.name.text)
  }
  if (ts.isCatchClause(scope) && scope.variableDeclaration !== undefined) {
    names.push(...boundNames(scope.variableDeclaration.name))
  }
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && !ts.isCatchClause(node.parent)) names.push(...boundNames(node.name))
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name !== undefined) {
      names.push(node.name.text)
    }
    if (!isFunctionLike(node) && !ts.isClassLike(node)) ts.forEachChild(node, visit)
  }
  const body = isFunctionLike(scope) ? scope.body : ts.isCatchClause(scope) ? scope.block : undefined
  if (body !== undefined) visit(body)
  return names
}

/** Whether an identifier reads a variable (rather than naming a property, a declaration or a label). */
const isReference = (node: ts.Identifier): boolean => {
  const parent = node.parent
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false
  if (
    (ts.isPropertyAssignment(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isAccessor(parent) ||
      ts.isBindingElement(parent) ||
      ts.isParameter(parent) ||
      ts.isVariableDeclaration(parent) ||
      ts.isFunctionExpression(parent) ||
      ts.isFunctionDeclaration(parent) ||
      ts.isClassLike(parent) ||
      ts.isEnumMember(parent) ||
      ts.isMetaProperty(parent)) &&
    parent.name === node
  ) {
    return false
  }
  if (ts.isBindingElement(parent) && parent.propertyName === node) return false
  return !(
    ts.isLabeledStatement(parent) ||
    ts.isBreakOrContinueStatement(parent) ||
    ts.isTypeParameterDeclaration(parent)
  )
}

const listed = (scope: Scope) => [...scope].join(", ")

/** The issues of the names an expression reads that neither its place, its own declarations nor the sandbox has. */
const nameIssues = (
  root: ts.Expression,
  scope: Scope,
  issue: (at: number, message: string) => void,
  file: ts.SourceFile
): void => {
  const visit = (node: ts.Node, declared: ReadonlySet<string>) => {
    if (ts.isTypeNode(node) || ts.isTypeParameterDeclaration(node) || ts.isHeritageClause(node)) return
    const inner =
      isFunctionLike(node) || ts.isClassLike(node) || ts.isCatchClause(node)
        ? new Set([...declared, ...declaredIn(node)])
        : declared
    if (ts.isIdentifier(node) && isReference(node) && !inner.has(node.text)) {
      const name = node.text
      const at = node.getStart(file)
      if (name.startsWith("$") && !scope.has(name)) {
        issue(at, `Cannot find name '${name}'. Here an expression may use ${listed(scope)}.`)
      } else if (!name.startsWith("$") && !sandboxGlobals.has(name)) {
        issue(at, `Cannot find name '${name}'. Expressions run in the sandbox, which has no such global.`)
      }
    }
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      !inner.has(node.expression.text) &&
      absentMembers[node.expression.text]?.has(node.name.text) === true
    ) {
      issue(
        node.name.getStart(file),
        `Property '${node.name.text}' does not exist on type '${node.expression.text}'. The sandbox removes it.`
      )
    }
    ts.forEachChild(node, (child) => visit(child, inner))
  }
  visit(root, new Set())
}

/**
 * Checks the code of one expression at save (workflow-format.md §6.5): exactly one TypeScript expression, no
 * statement and no semicolon, TypeScript that erases to JavaScript, and only the names its place provides or the
 * sandbox has. Issues are placed at the offending character in the YAML source. `undefined` when refused.
 */
export const readExpression = (
  reading: Reading,
  place: ExpressionPlace,
  code: string,
  scope: Scope
): Expression | undefined => {
  const before = reading.issues.length
  const issue = (at: number, message: string) => codeIssue(reading, place, at, message)
  if (code.trim() === "") {
    issue(0, "the expression is empty; write one TypeScript expression")
    return undefined
  }
  const file = ts.createSourceFile("/expression.ts", code, ts.ScriptTarget.ES2023, true, ts.ScriptKind.TS)
  const [syntax] = syntaxErrors(file)
  if (syntax !== undefined) {
    issue(syntax.start ?? 0, ts.flattenDiagnosticMessageText(syntax.messageText, " "))
    return undefined
  }
  const [first, second] = file.statements
  if (first === undefined || !ts.isExpressionStatement(first) || second !== undefined) {
    const at = second ?? first
    issue(
      at === undefined ? 0 : at.getStart(file),
      first !== undefined && ts.isBlock(first)
        ? "this reads as a block of statements; write an object literal in parentheses: ${ ({ a: 1 }) }"
        : "write exactly one expression, not statements"
    )
    return undefined
  }
  if (code.slice(first.expression.end, first.end).includes(";")) {
    issue(first.expression.end, "an expression ends without a semicolon")
    return undefined
  }
  const blanked = blankSourceFile(file, (node) => {
    issue(node.getStart(file), `this TypeScript cannot be erased to JavaScript (${ts.SyntaxKind[node.kind]})`)
  })
  nameIssues(first.expression, scope, issue, file)
  if (reading.issues.length > before) return undefined
  const start = first.expression.getStart(file)
  return {
    _tag: "Expression",
    source: code.slice(start, first.expression.end),
    script: blanked.slice(start, first.expression.end),
    pointer: place.pointer
  }
}
