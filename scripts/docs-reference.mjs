// Writes the generated reference pages from the built code (run `npm run build` first): docs/reference/reasons.md
// from the reasons table, docs/reference/settings.md from the settings catalog. The API pages are TypeDoc's (typedoc.json), written when the site is built.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { authFallbacks } from '../dist/modules/auth/auth-config.js';
import { configFallbacks } from '../dist/src/config/kiln-config.js';
import { AUTH_SETTINGS, GENERAL_SETTINGS } from '../dist/src/config/settings-catalog.js';
import { errorCodeName, KILN_REASONS } from '../dist/src/errors/index.js';
import { reasonsMarkdown } from './reasons-markdown.mjs';
import { settingsMarkdown } from './settings-markdown.mjs';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, 'docs/reference/reasons.md'), reasonsMarkdown(KILN_REASONS, errorCodeName));
writeFileSync(
  join(root, 'docs/reference/settings.md'),
  settingsMarkdown(GENERAL_SETTINGS, AUTH_SETTINGS, new Map([...configFallbacks(), ...authFallbacks()])),
);
console.log('Wrote docs/reference/reasons.md and docs/reference/settings.md');
