// Counts read from the syntax tree: function sizes, result shapes, swallowed errors and SQL queries.
import {
  isArrowFunction,
  isBinaryExpression,
  isCallExpression,
  isCatchClause,
  isClassDeclaration,
  isConstructorDeclaration,
  isFunctionDeclaration,
  isFunctionExpression,
  isGetAccessorDeclaration,
  isIdentifier,
  isInterfaceDeclaration,
  isLiteralTypeNode,
  isMethodDeclaration,
  isNonNullExpression,
  isNoSubstitutionTemplateLiteral,
  isObjectLiteralExpression,
  isPropertyAccessExpression,
  isPropertyAssignment,
  isPropertyDeclaration,
  isPropertySignatureDeclaration,
  isSetAccessorDeclaration,
  isTaggedTemplateExpression,
  isTypeAliasDeclaration,
  isTypeLiteralNode,
  isVariableDeclaration,
  isVoidExpression,
  SyntaxKind,
  type Node,
  type SourceFile,
} from 'typescript/unstable/ast'
import type { Source } from './program.js'

export interface FunctionSize {
  name: string
  where: string
  lines: number
  branches: number
}

const isFunctionLike = (n: Node) =>
  isFunctionDeclaration(n) ||
  isFunctionExpression(n) ||
  isArrowFunction(n) ||
  isMethodDeclaration(n) ||
  isConstructorDeclaration(n) ||
  isGetAccessorDeclaration(n) ||
  isSetAccessorDeclaration(n)

const BRANCH_KINDS = new Set([
  SyntaxKind.IfStatement,
  SyntaxKind.ConditionalExpression,
  SyntaxKind.CaseClause,
  SyntaxKind.CatchClause,
  SyntaxKind.ForStatement,
  SyntaxKind.ForInStatement,
  SyntaxKind.ForOfStatement,
  SyntaxKind.WhileStatement,
  SyntaxKind.DoStatement,
])
const BRANCH_OPERATORS = new Set([
  SyntaxKind.AmpersandAmpersandToken,
  SyntaxKind.BarBarToken,
  SyntaxKind.QuestionQuestionToken,
  SyntaxKind.AmpersandAmpersandEqualsToken,
  SyntaxKind.BarBarEqualsToken,
  SyntaxKind.QuestionQuestionEqualsToken,
])

/** Decision points: if, ?:, case, catch, loops and the short-circuit operators (nested closures included). */
function branches(node: Node): number {
  let n =
    BRANCH_KINDS.has(node.kind) || (isBinaryExpression(node) && BRANCH_OPERATORS.has(node.operatorToken.kind)) ? 1 : 0
  node.forEachChild(child => {
    n += branches(child)
  })
  return n
}

function nameOf(fn: Node): string {
  const named = (n: Node): string | undefined => {
    if ('name' in n && n.name && typeof n.name === 'object' && isIdentifier(n.name as Node))
      return (n.name as { text: string }).text
    return undefined
  }
  const own = named(fn)
  if (isConstructorDeclaration(fn)) return `${named(fn.parent) ?? '(class)'}.constructor`
  if (isMethodDeclaration(fn) && isClassDeclaration(fn.parent)) return `${named(fn.parent) ?? '(class)'}.${own ?? '?'}`
  if (own) return own
  const p = fn.parent
  if (isVariableDeclaration(p) || isPropertyAssignment(p) || isPropertyDeclaration(p)) return named(p) ?? '(anonymous)'
  return '(anonymous)'
}

const lineOf = (file: SourceFile, pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1

export function functionSizes(sources: Source[]): FunctionSize[] {
  const out: FunctionSize[] = []
  for (const { path, file } of sources) {
    const walk = (node: Node): void => {
      if (isFunctionLike(node)) {
        const first = lineOf(file, node.getStart(file)),
          last = lineOf(file, node.end)
        out.push({ name: nameOf(node), where: `${path}:${first}`, lines: last - first + 1, branches: branches(node) })
      }
      node.forEachChild(walk)
    }
    walk(file)
  }
  return out.sort((a, b) => b.lines - a.lines)
}

export interface ResultShapes {
  named: string[]
  okUnions: string[]
  stringCodes: string[]
  /** the members beside `ok: false` that say why (code, reason, error, message), by shape, with the types using each */
  failures: Map<string, string[]>
}

const WHY = new Set(['code', 'reason', 'error', 'message'])

/**
 * Result shapes: declarations named *Outcome, *Verdict or *Result; type aliases and interfaces holding an object
 * type with an `ok` member (the `{ ok: true, … } | { ok: false, … }` unions); and, inside either, members named
 * `code` or `reason` typed as plain `string` (the codes a compiler cannot check).
 */
export function resultShapes(sources: Source[]): ResultShapes {
  const named: string[] = [],
    okUnions: string[] = [],
    stringCodes: string[] = [],
    failures = new Map<string, string[]>()
  const failureShapes = (n: Node, where: string): void => {
    if (isTypeLiteralNode(n)) {
      const props = n.members.filter(isPropertySignatureDeclaration).filter(m => isIdentifier(m.name))
      const ok = props.find(m => (m.name as { text: string }).text === 'ok')
      if (ok?.type && isLiteralTypeNode(ok.type) && ok.type.literal.kind === SyntaxKind.FalseKeyword) {
        const why = props
          .map(m => (m.name as { text: string }).text)
          .filter(k => WHY.has(k))
          .sort()
        const shape = `{ ok: false${why.map(k => `, ${k}`).join('')} }`
        const types = failures.get(shape) ?? []
        if (!types.includes(where)) failures.set(shape, [...types, where])
      }
    }
    n.forEachChild(c => failureShapes(c, where))
  }
  const hasOk = (n: Node): boolean => {
    if (
      (isTypeLiteralNode(n) || isInterfaceDeclaration(n)) &&
      n.members.some(m => isPropertySignatureDeclaration(m) && isIdentifier(m.name) && m.name.text === 'ok')
    )
      return true
    return n.forEachChild(hasOk) ?? false
  }
  const plainCodes = (n: Node, where: string): void => {
    if (
      isPropertySignatureDeclaration(n) &&
      isIdentifier(n.name) &&
      (n.name.text === 'code' || n.name.text === 'reason') &&
      n.type?.kind === SyntaxKind.StringKeyword
    )
      stringCodes.push(`${where}.${n.name.text}`)
    n.forEachChild(c => plainCodes(c, where))
  }
  for (const { path, file } of sources) {
    const walk = (node: Node): void => {
      if (isTypeAliasDeclaration(node) || isInterfaceDeclaration(node) || isClassDeclaration(node)) {
        const name = node.name?.text ?? '(anonymous)',
          where = `${path}: ${name}`
        const isNamed = /(Outcome|Verdict|Result)$/.test(name),
          isOk = !isClassDeclaration(node) && hasOk(node)
        if (isNamed) named.push(where)
        if (isOk) okUnions.push(where)
        if (isNamed || isOk) plainCodes(node, where)
        if (isOk) failureShapes(node, where)
      }
      node.forEachChild(walk)
    }
    walk(file)
  }
  return { named, okUnions, stringCodes, failures }
}

export interface Swallowed {
  bareCatch: string[]
  emptyCatch: string[]
  catchIgnoringError: string[]
  voidCalls: string[]
  /** catches of either kind that neither throw, return, log nor say why in a comment */
  unexplained: string[]
}

/**
 * Places where an error may vanish: `catch {` with no binding, a catch (bound or not) whose block is empty,
 * `.catch(() => …)` whose handler takes no argument (so cannot log it), and `void f()` (a promise let go).
 */
export function swallowed(sources: Source[]): Swallowed {
  const s: Swallowed = { bareCatch: [], emptyCatch: [], catchIgnoringError: [], voidCalls: [], unexplained: [] }
  const accounted = (text: string) =>
    /\bthrow\b|\breturn\b|\blog\b|\.(warn|error|debug|info)\(|console\.|onWarn|onError|fault|\/\*|\/\//.test(text)
  for (const { path, file } of sources) {
    const at = (n: Node) => `${path}:${lineOf(file, n.getStart(file))}`
    /** the text from a line before `start` to the end of the line holding `end`: where a why would be written */
    const around = (start: number, end: number) =>
      file.text.slice(
        file.text.lastIndexOf('\n', file.text.lastIndexOf('\n', start - 1) - 1) + 1,
        file.text.indexOf('\n', end) >>> 0,
      )
    const walk = (node: Node): void => {
      if (isCatchClause(node)) {
        if (!node.variableDeclaration) s.bareCatch.push(at(node))
        if (node.block.statements.length === 0) s.emptyCatch.push(at(node))
        if (!node.variableDeclaration && !accounted(around(node.getStart(file), node.block.end)))
          s.unexplained.push(at(node))
      } else if (
        isCallExpression(node) &&
        isPropertyAccessExpression(node.expression) &&
        node.expression.name.text === 'catch'
      ) {
        const [handler] = node.arguments
        if (handler && (isArrowFunction(handler) || isFunctionExpression(handler)) && handler.parameters.length === 0) {
          s.catchIgnoringError.push(at(node))
          if (!accounted(around(handler.getStart(file), handler.end))) s.unexplained.push(at(node))
        }
      } else if (isVoidExpression(node) && node.expression.kind !== SyntaxKind.NumericLiteral) {
        s.voidCalls.push(at(node))
      }
      node.forEachChild(walk)
    }
    walk(file)
  }
  return s
}

export interface Queries {
  typed: string[]
  untyped: string[]
}

const SQL_TAGS = new Set(['sql', 'tx', 'db', 'conn'])
const STATEMENT = /^\s*(select|insert|update|delete|with|create|alter|drop|truncate|lock|listen|notify|set|do)\b/i

/** Tagged-template queries: a tag named like a connection, whose text starts with a statement (fragments are not counted). */
export function queries(sources: Source[]): Queries {
  const q: Queries = { typed: [], untyped: [] }
  for (const { path, file } of sources) {
    const walk = (node: Node): void => {
      if (isTaggedTemplateExpression(node) && isIdentifier(node.tag) && SQL_TAGS.has(node.tag.text)) {
        const t = node.template
        const head = isNoSubstitutionTemplateLiteral(t) ? t.text : t.head.text
        if (STATEMENT.test(head))
          (node.typeArguments?.length ? q.typed : q.untyped).push(`${path}:${lineOf(file, node.getStart(file))}`)
      }
      node.forEachChild(walk)
    }
    walk(file)
  }
  return q
}

/** Row -> RFQ mappers: object literals that map a row's `token_in` to `tokenIn` and also set `kind` (an RFQ, not a quote or fill). */
export function rfqRowMappers(sources: Source[]): string[] {
  const found: string[] = []
  for (const { path, file } of sources) {
    const walk = (node: Node): void => {
      if (isObjectLiteralExpression(node)) {
        const props = new Map(
          node.properties
            .filter(isPropertyAssignment)
            .filter(p => isIdentifier(p.name))
            .map(p => [(p.name as { text: string }).text, p.initializer.getText(file)]),
        )
        if (/\btoken_in\b/.test(props.get('tokenIn') ?? '') && props.has('kind'))
          found.push(`${path}:${lineOf(file, node.getStart(file))}`)
      }
      node.forEachChild(walk)
    }
    walk(file)
  }
  return found
}

/** Non-null assertions (`x!`): each one a claim the compiler takes on trust. */
export function nonNullAssertions(sources: Source[]): string[] {
  const found: string[] = []
  for (const { path, file } of sources) {
    const walk = (node: Node): void => {
      if (isNonNullExpression(node)) found.push(`${path}:${lineOf(file, node.getStart(file))}`)
      node.forEachChild(walk)
    }
    walk(file)
  }
  return found
}
