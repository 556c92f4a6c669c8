// What the input pipeline rewrote before a tool ran, as telemetry: kiln.input.* counters by tool, and the key names
// and repaired paths (never values) on the operation span, which is active while the round runs.
import type { ActiveTelemetry } from '../telemetry/kiln-telemetry.js';
import { ATTR } from '../telemetry/semantic-names.js';
import type { InputEvents } from './input/index.js';

export function noteInputEvents(telemetry: ActiveTelemetry, toolName: string, events: InputEvents): void {
  const { ignored, aliased, coerced } = events;
  const metrics = telemetry.metrics;
  if (metrics) {
    const attributes = { [ATTR.toolName]: toolName };
    if (ignored.length > 0) metrics.inputDroppedKeys.add(ignored.length, attributes);
    if (aliased.length > 0) metrics.inputAliasedKeys.add(aliased.length, attributes);
    if (coerced.length > 0) metrics.inputRepairs.add(coerced.length, attributes);
  }
  const span = telemetry.api.trace.getActiveSpan();
  if (span === undefined) return;
  if (ignored.length > 0) span.setAttribute(ATTR.inputDropped, ignored);
  if (aliased.length > 0)
    span.setAttribute(
      ATTR.inputAliased,
      aliased.map(([from, to]) => `${from}->${to}`),
    );
  if (coerced.length > 0) span.setAttribute(ATTR.inputRepaired, coerced);
}
