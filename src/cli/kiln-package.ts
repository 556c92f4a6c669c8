// The installed mcp-kiln package the CLI belongs to: its root folder (where `templates/` ships) and its manifest,
// whose versions `kiln new` pins. Found by walking up from this file, which sits at a different depth in the
// source tree (src/cli) than in the build (dist/src/cli).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface KilnManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
}

export interface KilnPackage {
  readonly root: string;
  readonly manifest: KilnManifest;
}

const PACKAGE_NAME = 'mcp-kiln';

let found: KilnPackage | undefined;

export function kilnPackage(): KilnPackage {
  found ??= locate(dirname(fileURLToPath(import.meta.url)));
  return found;
}

function locate(start: string): KilnPackage {
  for (let folder = start; ; folder = dirname(folder)) {
    const manifestPath = join(folder, 'package.json');
    if (existsSync(manifestPath)) {
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as KilnManifest;
      if (manifest.name === PACKAGE_NAME) return { root: folder, manifest };
    }
    if (dirname(folder) === folder) throw new Error(`No ${PACKAGE_NAME} package.json above ${start}.`);
  }
}
