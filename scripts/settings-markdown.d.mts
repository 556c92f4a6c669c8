// Types of settings-markdown.mjs, for the test that checks the generated page.
import type { SettingEntry } from '../src/config/settings-catalog.js';

export function settingsMarkdown(
  general: readonly SettingEntry[],
  auth: readonly SettingEntry[],
  fallbacks: ReadonlyMap<string, unknown>,
): string;
