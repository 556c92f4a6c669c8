// Builds what `npm pack` ships (the dist/ folders listed in package.json `files`) from nothing, so no file that an
// earlier build left for a moved or deleted source can reach the package. tsconfig.build.json compiles only the
// runtime and inlines each source into its map, since the .ts files themselves are not shipped.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';

const { files } = JSON.parse(readFileSync('package.json', 'utf8'));
for (const shipped of files.filter((path) => path.startsWith('dist/'))) {
  rmSync(shipped, { recursive: true, force: true });
}
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
