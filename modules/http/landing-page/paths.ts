// Where the landing page's own assets are served: known to the routes at boot, before the page's code loads.

/** Where the HTTP host serves the playground script. */
export const PLAYGROUND_SCRIPT_PATH = '/playground.js';
