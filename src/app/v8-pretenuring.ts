// MCP_V8_PRETENURING=off (the default): Kiln turns off V8's allocation-site pretenuring when an app starts serving.
//
// V8 watches each object literal's allocation site, and once it sees most of a site's objects survive a minor GC it
// allocates that site's objects in the old generation from then on. A server's per-request objects die young, but one
// misjudged site is enough: its objects, now old, keep the young objects they point at (the request's context,
// closures, results) alive through every scavenge, those get promoted, their own sites are judged long-lived in
// turn, and the request path ends up allocating straight into the old generation until a full GC. Measured on the
// HTTP fast path (notes_get_note, 16 connections): about 1.1 MB promoted per scavenge, scavenges of 3-10 ms instead
// of under 1 ms, a mark-compact every few seconds, and p99 doubled; with pretenuring off nothing is promoted. The
// SDK's own handlers promote for other reasons and gain nothing from it.
//
// The setting is process-wide, so it is applied once, when the app's first host has started and before it takes a
// request, and never when the node command line (or NODE_OPTIONS) names the flag itself: an explicit choice wins.
// `on` leaves V8 alone. Not sooner: V8 checks every code cache against its flags, Node's cache of its own built-in
// modules included, so each built-in a process loads after the switch is compiled from scratch. Switched when the app
// was created, before its host loaded Fastify, node:http and the rest, a server took 40 ms longer to answer its first
// call over HTTP and 45 ms over stdio (medians of 10, against 350 and 270 ms for the bare SDK). Boot's own objects
// are long-lived anyway, and the request path's allocation sites have not run yet when the switch comes.

import { commandLineNames, lastV8Flag, nodeStartFlags, setV8Flag } from '../loading/v8-flags.js';
import type { Logger } from '../logging/index.js';

const FLAG = 'allocation-site-pretenuring';
const OFF = `--no-${FLAG}`;

/** `startFlags`: the node command line's own flags (execArgv and NODE_OPTIONS), parameterised for tests. */
export function applyV8Pretenuring(
  setting: 'on' | 'off',
  logger: Logger,
  startFlags: readonly string[] = nodeStartFlags(),
): void {
  if (setting === 'on') return;
  if (commandLineNames(FLAG, startFlags)) {
    logger.debug(`MCP_V8_PRETENURING=off left alone: the node command line sets --${FLAG} itself.`);
    return;
  }
  // Process-wide: the first app of a process to serve turns it off, and any other finds it off.
  if (lastV8Flag(FLAG) === OFF) return;
  // Recorded for the code cache of the runtime's chunks that compile from now on (src/loading/runtime-loader.ts).
  setV8Flag(OFF, `--${FLAG}`);
  logger.debug(`V8 allocation-site pretenuring turned off for this process (MCP_V8_PRETENURING=off).`);
}
