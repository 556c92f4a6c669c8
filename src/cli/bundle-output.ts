// The output settings of `kiln bundle`: a user's server and everything it imports as one ES module file, written to
// start fast.
import type { OutputOptions } from 'rolldown';

export const BUNDLE_OUTPUT = {
  format: 'esm',
  sourcemap: true,
  // One character beyond Latin-1 anywhere makes V8 hold the file's whole source at two bytes per character: escaped
  // to ASCII (legal comments keep theirs, Latin-1 at worst), the sources take half the memory.
  charset: 'ascii',
  // JSDoc is for editors (the .d.ts files keep it); licence headers and the bundler's annotations stay.
  comments: { legal: true, annotation: true, jsdoc: false },
  // Whitespace out and local names shortened: V8 scans every byte of a module before it runs a line of it. Function
  // and class names are kept, so stack traces and error messages read as before; no code is rewritten (compress
  // off); the source maps lead back to the sources. `__require` (the bundler's require for the CommonJS packages
  // compiled in) keeps its name too.
  minify: { compress: false, mangle: { keepNames: true, reserved: ['__require'] } },
} as const satisfies OutputOptions;
