// Writes the generated reference pages from the built code (run `npm run build` first): docs/reference/reasons.md
// from the reasons table. The API pages are TypeDoc's (typedoc.json), written when the site is built.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorCodeName, KILN_REASONS } from '../dist/src/errors/index.js';
import { reasonsMarkdown } from './reasons-markdown.mjs';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'docs/reference/reasons.md'), reasonsMarkdown(KILN_REASONS, errorCodeName));
console.log('Wrote docs/reference/reasons.md');
