// A file of the repository by its path from the root, whether the caller runs from the sources (tests) or from their
// compiled copy under dist/ (benchmarks).
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('../../', import.meta.url));
const ROOT = here.endsWith('/dist/') ? here.slice(0, -'dist/'.length) : here;

export function repoFile(path: string): string {
  return `${ROOT}${path}`;
}
