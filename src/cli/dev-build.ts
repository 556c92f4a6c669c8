// `kiln dev`'s compile step: the server entry and every project file it imports, as the tests compile them (legacy
// decorators with design:paramtypes), into one ES module in the dev directory. Packages stay imports from
// node_modules, so the app loads the one installed copy of mcp-kiln and of everything else; source maps point at the
// TypeScript files.
import { isAbsolute, join } from 'node:path';

const COMPILER_HELPERS = '@oxc-project/runtime';

/** Compiles `entry` into `outDir`; resolves with the file to start with node. */
export async function buildForDev(entry: string, outDir: string): Promise<string> {
  const { build } = await import('rolldown');
  await build({
    input: entry,
    platform: 'node',
    // A bare specifier is a package (or a Node built-in): loaded by Node, not compiled in. The compiler's own helpers
    // (decorators) are compiled in: the project does not depend on their package.
    external: (id) =>
      !id.startsWith('.') && !isAbsolute(id) && !id.startsWith('\0') && !id.startsWith(COMPILER_HELPERS),
    transform: { decorator: { legacy: true, emitDecoratorMetadata: true } },
    // TypeScript sources import each other as the .js files tsc would write.
    resolve: { extensionAlias: { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] } },
    logLevel: 'silent',
    output: { dir: outDir, format: 'esm', sourcemap: true, entryFileNames: 'main.mjs', chunkFileNames: '[name].mjs' },
  });
  return join(outDir, 'main.mjs');
}

/** A build failure as a developer reads it: the compiler's message, paths relative to the project. */
export function describeBuildError(error: unknown, cwd: string): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replaceAll(`${cwd}/`, '');
}
