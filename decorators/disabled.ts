// @Disabled({ reason, hint?, since? }): the tool stays in the manifest (and on the landing page) but is never
// registered with the protocol server, so no client can call it.
import { DISABLED_METADATA, defineMetadata } from './metadata-keys.js';
import type { Constructor, DisabledMetadata } from './types.js';

export function Disabled(metadata: DisabledMetadata): (target: Constructor) => void {
  return (target) => defineMetadata(DISABLED_METADATA, metadata, target);
}
