// The playground's one script, served by the HTTP host at its own path (so a strict CSP allows it as 'self'): the
// typed browser code in ./playground/, bundled into one script by the package build and by the tests
// (scripts/playground-bundle.mjs supplies `virtual:kiln-playground`). Imported on the first request for it only.
import { PLAYGROUND_BUNDLE } from 'virtual:kiln-playground';

export const PLAYGROUND_SCRIPT: string = PLAYGROUND_BUNDLE;
