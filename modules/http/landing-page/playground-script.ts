// The playground's one script, served by the HTTP host at its own path (so a strict CSP allows it as 'self'): the
// parts below wrapped in one function scope, started once the page has parsed.
import { PLAYGROUND_APP_SCRIPT } from './playground-app-script.js';
import { PLAYGROUND_FIELDS_SCRIPT } from './playground-fields-script.js';
import { PLAYGROUND_FORM_SCRIPT } from './playground-form-script.js';
import { PLAYGROUND_INPUT_SCRIPT } from './playground-input-script.js';
import { PLAYGROUND_OUTPUT_SCRIPT } from './playground-output-script.js';
import { PLAYGROUND_SCHEMA_SCRIPT } from './playground-schema-script.js';
import { PLAYGROUND_WIRE_SCRIPT } from './playground-wire-script.js';

export const PLAYGROUND_SCRIPT = `// The mcp-kiln playground: calls this server's MCP endpoint from the landing page.
(() => {
'use strict';
${PLAYGROUND_SCHEMA_SCRIPT}${PLAYGROUND_FIELDS_SCRIPT}${PLAYGROUND_FORM_SCRIPT}${PLAYGROUND_OUTPUT_SCRIPT}${PLAYGROUND_WIRE_SCRIPT}${PLAYGROUND_INPUT_SCRIPT}${PLAYGROUND_APP_SCRIPT}
tokenGate();
})();
`;
