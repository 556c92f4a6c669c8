// Types of playground-bundle.mjs, for vitest.config.ts and the test of the served script.
import type { Plugin } from 'rolldown';

export const PLAYGROUND_MODULE: 'virtual:kiln-playground';
export function bundlePlayground(): Promise<{ readonly code: string; readonly files: readonly string[] }>;
export function playgroundModule(): Plugin;
