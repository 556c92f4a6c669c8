// The import rule of ARCHITECTURE.md: a file imports only from its own layer or lower ones (type-only imports count
// too); modules and examples reach the project only through its public entry files; src never imports modules. Code
// that runs from dist (examples, bench, conformance, test fixtures) reaches the runtime by package name only: there
// `mcp-kiln` is the bundle in dist/pkg, and a relative import would load a second copy of the runtime beside it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const scannedFolders = ['src', 'decorators', 'modules', 'examples'];

/** Layers, lowest first; the first matching prefix wins, so list files before their folders. */
const layers: readonly (readonly [number, readonly string[]])[] = [
  [0, ['decorators/', 'src/errors/', 'src/config/', 'src/logging/', 'src/telemetry/', 'src/platform/']],
  [1, ['src/storage/', 'src/notifications/', 'src/context/']],
  [2, ['src/di/']],
  [3, ['src/definitions/']],
  [4, ['src/pipeline/']],
  [5, ['src/protocol/', 'src/tasks/']],
  [6, ['src/app/']],
  [7, ['src/transports/']],
  [8, ['src/bootstrap/']],
  [9, ['src/testing/', 'src/host/', 'src/index.ts']],
  [10, ['src/cli/']],
];

/** Folders whose files run from dist next to the bundled runtime; test fixtures are matched by path below. */
const runsFromDist = ['examples', 'bench', 'conformance'];
const isRunFromDist = (file: string) =>
  runsFromDist.some((folder) => file.startsWith(`${folder}/`)) || /^test\/.*\/fixtures\//.test(file);
const isRuntime = (file: string) => /^(src|decorators|modules)\//.test(file);

const publicEntries = new Set([
  'src/index.ts',
  'src/errors/index.ts',
  'src/storage/index.ts',
  'src/host/index.ts',
  'src/testing/index.ts',
]);
const isModuleEntry = (file: string) => /^modules\/[^/]+\/index\.ts$/.test(file);

interface ImportEdge {
  readonly specifier: string;
  readonly typeOnly: boolean;
  readonly dynamic: boolean;
}

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly why: string;
}

function layerOf(file: string): number | undefined {
  return layers.find(([, prefixes]) => prefixes.some((prefix) => file.startsWith(prefix)))?.[0];
}

function listSources(folder: string): string[] {
  const absolute = join(root, folder);
  if (!existsSync(absolute)) return [];
  return readdirSync(absolute).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(join(root, path)).isDirectory()) return listSources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module specifier a file names: import/export-from declarations, `import x = require()`, `import()`, `import('x').T`. */
function importEdges(fileName: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnlyImport(node), dynamic: false });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push({ specifier: node.moduleSpecifier.text, typeOnly: isTypeOnlyExport(node), dynamic: false });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      edges.push({ specifier: node.moduleReference.expression.text, typeOnly: node.isTypeOnly, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      edges.push({ specifier: node.arguments[0].text, typeOnly: false, dynamic: true });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      edges.push({ specifier: node.argument.literal.text, typeOnly: true, dynamic: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.every((element) => element.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return !!clause && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly);
}

/** The project file a specifier names (relative, or the package's own name through `exports`); undefined for other packages. */
function resolveSpecifier(
  fromFile: string,
  specifier: string,
  selfExports: ReadonlyMap<string, string>,
): string | undefined {
  if (specifier.startsWith('.')) {
    const base = join(dirname(fromFile), specifier);
    const candidates = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, join(base, 'index.ts')];
    const found = candidates.find(
      (candidate) => existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile(),
    );
    return found ?? base;
  }
  return selfExports.get(specifier);
}

/** package.json `exports` mapped to source files: `mcp-kiln/http` → modules/http/index.ts. */
function selfExportMap(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { import?: { types?: string } }>;
  };
  const map = new Map<string, string>();
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    const types = typeof target === 'string' ? target : target.import?.types;
    if (!types?.endsWith('.d.ts')) continue;
    const source = types.replace(/^\.\/dist\//, '').replace(/\.d\.ts$/, '.ts');
    map.set(subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`, source);
  }
  return map;
}

const isPublicEntry = (file: string) => publicEntries.has(file) || isModuleEntry(file);
const topFolder = (file: string, depth: number) => file.split('/').slice(0, depth).join('/');

/** Why `from` may not import `to`, or undefined when it may. */
function ruleBreak(from: string, to: string, edge: ImportEdge): string | undefined {
  if (from.startsWith('modules/')) {
    // The root entry exports the composition root, which loads the modules: a module reads only its types.
    if (to === 'src/index.ts' && !edge.typeOnly) {
      return 'a module imports values from mcp-kiln/host, /errors or /storage; the root entry (the composition root) only for types';
    }
    if (topFolder(from, 2) === topFolder(to, 2) || isPublicEntry(to)) return undefined;
    return 'a module may import the project only through its public entries';
  }
  if (from.startsWith('examples/')) {
    if (topFolder(from, 2) === topFolder(to, 2) || isPublicEntry(to)) return undefined;
    return 'an example may import the project only through its public entries';
  }
  if (to.startsWith('modules/')) {
    // The composition root and the testing kit load a module on use, by the package's own name.
    const loader = layerOf(from) === 8 || from.startsWith('src/testing/');
    const loadsOwnPackage = (edge.dynamic || edge.typeOnly) && !edge.specifier.startsWith('.') && loader;
    return loadsOwnPackage
      ? undefined
      : 'src may not import modules (only bootstrap and the testing kit load them, by dynamic import)';
  }
  if (to.startsWith('examples/')) return 'src may not import examples';
  const fromLayer = layerOf(from);
  const toLayer = layerOf(to);
  if (fromLayer === undefined) return 'the importing file belongs to no layer; add its folder to the layer table';
  if (toLayer === undefined) return 'the imported file belongs to no layer; add its folder to the layer table';
  if (toLayer <= fromLayer) return undefined;
  if (from.startsWith('decorators/') && to.startsWith('src/context/') && edge.typeOnly) return undefined;
  return `layer ${fromLayer} may not import layer ${toLayer}`;
}

/** Why a file run from dist may not import the runtime this way: a relative path beside the bundled package. */
function bundleSplit(from: string, to: string, edge: ImportEdge): string | undefined {
  if (!isRunFromDist(from) || !isRuntime(to) || edge.typeOnly || !edge.specifier.startsWith('.')) return undefined;
  return 'code run from dist must import the runtime as mcp-kiln/..., not by path (a second copy beside dist/pkg)';
}

function findViolations(files: readonly string[], read: (file: string) => string): Violation[] {
  const selfExports = selfExportMap();
  const violations: Violation[] = [];
  for (const from of files) {
    for (const edge of importEdges(from, read(from))) {
      const to = resolveSpecifier(from, edge.specifier, selfExports);
      if (to === undefined) continue;
      const layered = scannedFolders.some((folder) => from.startsWith(`${folder}/`));
      const why = (layered ? ruleBreak(from, to, edge) : undefined) ?? bundleSplit(from, to, edge);
      if (why) violations.push({ from, to, why });
    }
  }
  return violations;
}

/**
 * Every import circle among the files' static imports (type-only ones included), each as the files around it. The
 * composition root's dynamic loads of its own modules by package name are not edges here: they run on use, after
 * every module involved has been evaluated.
 */
function findCycles(files: readonly string[], read: (file: string) => string): string[][] {
  const selfExports = selfExportMap();
  const graph = new Map<string, string[]>();
  for (const from of files) {
    const targets = importEdges(from, read(from))
      .filter((edge) => !edge.dynamic)
      // A file not on disk (a planted one) resolves to its specifier's path: its .ts is the file meant.
      .map((edge) => resolveSpecifier(from, edge.specifier, selfExports)?.replace(/\.js$/, '.ts'))
      .filter((to): to is string => to !== undefined && files.includes(to));
    graph.set(from, targets);
  }
  // Tarjan's strongly connected components: every component of more than one file is a circle.
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file) as number, order.get(next) as number));
    }
    if (low.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return cycles;
}

const format = (violation: Violation) => `${violation.from} → ${violation.to} (${violation.why})`;
const readSource = (file: string) => readFileSync(join(root, file), 'utf8');

describe('import direction', () => {
  const files = scannedFolders.flatMap(listSources);
  const distRunners = [...runsFromDist, 'test'].flatMap(listSources).filter(isRunFromDist);

  it('scans the project', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('src/app/kiln-app.ts');
  });

  it('every file imports only its own layer or lower ones, and modules and examples only public entries', () => {
    expect(findViolations(files, readSource).map(format)).toEqual([]);
  });

  it('has no import circles: each pair of files that share types has the types in a file of their own', () => {
    expect(findCycles(files, readSource)).toEqual([]);
  });

  it('reports a planted circle, a type-only one included', () => {
    const planted = new Map([
      ['src/context/planted-a.ts', "import type { B } from './planted-b.js';\nexport type A = B;"],
      ['src/context/planted-b.ts', "import type { A } from './planted-a.js';\nexport type B = A;"],
    ]);
    expect(findCycles([...planted.keys()], (file) => planted.get(file) ?? '')).toEqual([
      ['src/context/planted-a.ts', 'src/context/planted-b.ts'],
    ]);
  });

  it('code run from dist (examples, bench, conformance, test fixtures) imports the runtime by package name', () => {
    expect(distRunners).toContain('bench/servers.ts');
    expect(distRunners).toContain('test/integration/fixtures/pipeline-fixture.ts');
    expect(findViolations(distRunners, readSource).map(format)).toEqual([]);
  });

  it('reports a planted upward import, including a type-only one', () => {
    const planted = new Map([
      ['src/context/planted.ts', "import type { KilnApp } from '../app/kiln-app.js';"],
      [
        'decorators/planted.ts',
        "import { Errors } from '../src/errors/factories.js';\nimport { x } from '../src/di/tokens.js';",
      ],
      ['modules/http/planted.ts', "export { compileApp } from '../../src/app/compile-app.js';"],
      ['modules/redis/planted.ts', "import { createApp } from '../../src/index.js';"],
      [
        'examples/notes/planted.ts',
        "import { createApp } from 'mcp-kiln';\nimport type { Context } from '../../src/context/context.js';",
      ],
      ['src/app/planted.ts', "const load = () => import('mcp-kiln/http');"],
      ['src/testing/planted.ts', "import { lintCommand } from '../cli/lint-command.js';"],
      [
        'bench/planted.ts',
        "import { http } from '../modules/http/index.js';\nimport type { Context } from '../src/index.js';",
      ],
      ['test/redis/fixtures/planted.ts', "import { createApp } from '../../../src/index.js';"],
    ]);
    const violations = findViolations([...planted.keys()], (file) => planted.get(file) ?? '').map(format);
    expect(violations).toEqual([
      'src/context/planted.ts → src/app/kiln-app.ts (layer 1 may not import layer 6)',
      'decorators/planted.ts → src/di/tokens.ts (layer 0 may not import layer 2)',
      'modules/http/planted.ts → src/app/compile-app.ts (a module may import the project only through its public entries)',
      'modules/redis/planted.ts → src/index.ts (a module imports values from mcp-kiln/host, /errors or /storage; the root entry (the composition root) only for types)',
      'examples/notes/planted.ts → src/context/context.ts (an example may import the project only through its public entries)',
      'src/app/planted.ts → modules/http/index.ts (src may not import modules (only bootstrap and the testing kit load them, by dynamic import))',
      'src/testing/planted.ts → src/cli/lint-command.ts (layer 9 may not import layer 10)',
      'bench/planted.ts → modules/http/index.ts (code run from dist must import the runtime as mcp-kiln/..., not by path (a second copy beside dist/pkg))',
      'test/redis/fixtures/planted.ts → src/index.ts (code run from dist must import the runtime as mcp-kiln/..., not by path (a second copy beside dist/pkg))',
    ]);
  });
});
