/**
 * Finds the TypeScript type node that declares a template's props: the first parameter of
 * the default export. Reads the syntax and the checker's symbols only; nothing is executed.
 *
 * Recognised shapes (what template authors actually write):
 *   export default function Invoice(props: InvoiceProps) {}
 *   export default function Invoice({ a, b }: { a: string; b: number }) {}
 *   const Invoice = (props: Props) => ...; export default Invoice;
 *   const Invoice: FC<Props> = ...;  export default Invoice;
 *   class Invoice extends Component<Props> {}
 * Anything else (no annotation, `any`, a wrapped component like memo(X)) has no schema.
 */
import type * as TS from 'typescript';
import { loadTypescript } from './load-lazily.js';

function firstParameterType(fn: TS.SignatureDeclarationBase): TS.TypeNode | undefined {
  return fn.parameters[0]?.type;
}

/** `FC<P>`, `React.FC<P>`, `FunctionComponent<P>`, `Component<P>`: the first type argument. */
function firstTypeArgument(node: TS.TypeNode | TS.ExpressionWithTypeArguments | undefined): TS.TypeNode | undefined {
  const ts = loadTypescript();
  if (!node) return undefined;
  if (ts.isTypeReferenceNode(node) || ts.isExpressionWithTypeArguments(node)) return node.typeArguments?.[0];
  return undefined;
}

function fromExpression(expression: TS.Expression, checker: TS.TypeChecker, seen: Set<TS.Node>): TS.TypeNode | undefined {
  const ts = loadTypescript();
  if (ts.isParenthesizedExpression(expression) || ts.isSatisfiesExpression(expression) || ts.isAsExpression(expression)) {
    return fromExpression(expression.expression, checker, seen);
  }
  if (ts.isArrowFunction(expression) || ts.isFunctionExpression(expression)) return firstParameterType(expression);
  if (ts.isClassExpression(expression)) return fromClass(expression);
  if (ts.isIdentifier(expression)) {
    let symbol = checker.getSymbolAtLocation(expression);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    const declaration = symbol?.declarations?.[0];
    return declaration ? fromDeclaration(declaration, checker, seen) : undefined;
  }
  return undefined;
}

function fromClass(node: TS.ClassLikeDeclaration): TS.TypeNode | undefined {
  const ts = loadTypescript();
  const extendsClause = node.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword);
  return firstTypeArgument(extendsClause?.types[0]);
}

function fromDeclaration(node: TS.Node, checker: TS.TypeChecker, seen: Set<TS.Node>): TS.TypeNode | undefined {
  const ts = loadTypescript();
  if (seen.has(node)) return undefined;
  seen.add(node);
  if (ts.isFunctionDeclaration(node)) return firstParameterType(node);
  if (ts.isClassDeclaration(node)) return fromClass(node);
  if (ts.isExportAssignment(node)) return fromExpression(node.expression, checker, seen);
  if (ts.isVariableDeclaration(node)) {
    const annotated = firstTypeArgument(node.type);
    if (annotated) return annotated;
    return node.initializer ? fromExpression(node.initializer, checker, seen) : undefined;
  }
  if (ts.isExportSpecifier(node) || ts.isImportSpecifier(node) || ts.isImportClause(node)) {
    const symbol = checker.getSymbolAtLocation(node.name ?? node);
    const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target?.declarations?.[0];
    return declaration ? fromDeclaration(declaration, checker, seen) : undefined;
  }
  return undefined;
}

export function findPropsTypeNode(sourceFile: TS.SourceFile, checker: TS.TypeChecker): TS.TypeNode | undefined {
  const ts = loadTypescript();
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  if (!moduleSymbol) return undefined;
  const defaultExport = checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.escapedName === 'default');
  if (!defaultExport) return undefined;
  const seen = new Set<TS.Node>();
  for (const declaration of defaultExport.declarations ?? []) {
    const found = fromDeclaration(declaration, checker, seen);
    // `any` and `unknown` say nothing about the props: no schema, as for no annotation.
    if (found) return found.kind === ts.SyntaxKind.AnyKeyword || found.kind === ts.SyntaxKind.UnknownKeyword ? undefined : found;
  }
  return undefined;
}
