// The module the package build and the tests supply in place of a file (scripts/playground-bundle.mjs).
declare module 'virtual:kiln-playground' {
  /** The playground's browser code (./playground/) bundled into one script: an IIFE with no imports. */
  export const PLAYGROUND_BUNDLE: string;
}
