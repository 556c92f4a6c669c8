// Builds what `npm pack` ships (the dist/ folders listed in package.json `files`) from nothing, so no file that an
// earlier build left for a moved or deleted source can reach the package. tsconfig.build.json compiles only the
// runtime and inlines each source into its map, since the .ts files themselves are not shipped; the compiled runtime
// is then bundled into dist/pkg (scripts/bundle-runtime.mjs), which is what the package's entries load. Of tsc's own
// output only the declarations ship: the .js files beside them would be a second, unused copy of the runtime.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { bundleRuntime, OUT_DIR } from './bundle-runtime.mjs';

const { files } = JSON.parse(readFileSync('package.json', 'utf8'));
const shipped = files.filter((path) => path.startsWith('dist/'));
for (const folder of shipped) rmSync(folder, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
await bundleRuntime();

for (const folder of shipped) {
  if (join(process.cwd(), folder) === OUT_DIR) continue;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.js(\.map)?$/.test(entry.name)) rmSync(join(entry.parentPath, entry.name));
  }
}
