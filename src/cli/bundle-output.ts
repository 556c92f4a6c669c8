// The output settings both bundlers share: `kiln bundle` (a user's server) and scripts/bundle-runtime.mjs (Kiln's
// own dist/pkg), so a bundle of either kind loads the same way.
import type { OutputOptions } from 'rolldown';

export const BUNDLE_OUTPUT = {
  format: 'esm',
  sourcemap: true,
  // One character beyond Latin-1 anywhere makes V8 hold the file's whole source at two bytes per character: escaped
  // to ASCII (legal comments keep theirs, Latin-1 at worst), the sources take half the memory.
  charset: 'ascii',
  // JSDoc is for editors (the .d.ts files keep it); licence headers and the bundler's annotations stay.
  comments: { legal: true, annotation: true, jsdoc: false },
  // Whitespace only: V8 reads every byte of a module before it runs a line of it, so the indentation of Fastify and
  // Kiln costs start time (measured: about 25 ms of an HTTP server's start on Node 20). Names are kept, so stack
  // traces and error messages read as before, and the source maps lead back to the sources.
  minify: { compress: false, mangle: false },
} as const satisfies OutputOptions;
