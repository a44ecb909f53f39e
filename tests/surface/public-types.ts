import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

/** One package entry point: the package, the subpath (`.`, `./testing`, …) and its source file. */
export interface EntryPoint {
  readonly name: string;
  readonly file: string;
}

/** Every public entry point of the packages in `packagesDir`: what their `exports` maps name, in source. */
export function entryPoints(packagesDir: string, packages: readonly string[]): EntryPoint[] {
  return packages.flatMap((pkg) => {
    const dir = join(packagesDir, pkg);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      name: string;
      exports: Record<string, string | Record<string, string>>;
    };
    return Object.entries(manifest.exports).flatMap(([subpath, target]) => {
      const source = typeof target === 'object' ? target['@parley/source'] : undefined;
      // An entry outside src/ re-exports another package (the deprecated `@parley/openai/testing`), walked there.
      if (!source?.startsWith('./src/')) return [];
      return [
        {
          name: subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
          file: join(dir, source),
        },
      ];
    });
  });
}

/**
 * The types declared in the packages' sources that a public signature uses but no entry point exports, as
 * `Name (path) used by Export (entry)`. Walks each exported declaration (a class's non-private members, an
 * interface, a type alias, a function's signature, a variable's annotation) and what it references, transitively.
 */
export function unexportedPublicTypes(entries: readonly EntryPoint[], srcRoot: string): string[] {
  const program = ts.createProgram(
    entries.map((e) => e.file),
    {
      strict: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      customConditions: ['@parley/source'],
      noEmit: true,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const resolve = (symbol: ts.Symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const inSources = (symbol: ts.Symbol) =>
    (symbol.declarations ?? []).some((d) => {
      const file = d.getSourceFile().fileName;
      return file.startsWith(srcRoot) && !file.includes('/node_modules/');
    });

  const exported = new Set<ts.Symbol>();
  const roots: { symbol: ts.Symbol; via: string }[] = [];
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`cannot read the entry point ${entry.file}`);
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = resolve(symbol);
      exported.add(target);
      roots.push({ symbol: target, via: `${symbol.name} (${entry.name})` });
    }
  }

  const missing = new Map<string, string>();
  const seen = new Set<ts.Symbol>();
  const visitDeclaration = (node: ts.Node, via: string) => {
    const walk = (child: ts.Node): void => {
      if (ts.isPropertyDeclaration(child) || ts.isMethodDeclaration(child) || ts.isGetAccessor(child)) {
        const modifiers = ts.getCombinedModifierFlags(child);
        if (modifiers & ts.ModifierFlags.Private || (child.name && ts.isPrivateIdentifier(child.name)))
          return;
        if (ts.getJSDocTags(child).some((tag) => tag.tagName.text === 'internal')) return;
      }
      // Bodies are not signatures; a constructor is not public where the class is exported as a type only.
      if (ts.isBlock(child) || ts.isConstructorDeclaration(child) || ts.isClassStaticBlockDeclaration(child))
        return;
      if (
        ts.isTypeReferenceNode(child) ||
        ts.isExpressionWithTypeArguments(child) ||
        ts.isTypeQueryNode(child)
      ) {
        const name = ts.isTypeReferenceNode(child)
          ? child.typeName
          : ts.isTypeQueryNode(child)
            ? child.exprName
            : child.expression;
        const symbol = checker.getSymbolAtLocation(name);
        if (symbol) visit(resolve(symbol), via);
      }
      ts.forEachChild(child, walk);
    };
    if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) {
      for (const parameter of node.parameters) walk(parameter);
      if (node.type) walk(node.type);
      for (const typeParameter of node.typeParameters ?? []) walk(typeParameter);
    } else if (ts.isVariableDeclaration(node)) {
      if (node.type) walk(node.type);
    } else {
      walk(node);
    }
  };
  const visit = (symbol: ts.Symbol, via: string) => {
    if (seen.has(symbol) || !inSources(symbol)) return;
    if (symbol.flags & ts.SymbolFlags.TypeParameter) return;
    seen.add(symbol);
    if (!exported.has(symbol)) {
      const file = relative(srcRoot, dirname(symbol.declarations?.[0]?.getSourceFile().fileName ?? ''));
      missing.set(`${symbol.name} (${file})`, via);
    }
    for (const declaration of symbol.declarations ?? []) visitDeclaration(declaration, via);
  };
  for (const { symbol, via } of roots) {
    seen.add(symbol);
    for (const declaration of symbol.declarations ?? []) visitDeclaration(declaration, via);
  }
  return [...missing].map(([name, via]) => `${name} used by ${via}`).sort();
}
