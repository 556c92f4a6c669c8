// headerParam(schema, 'Region'): marks a tool input field as a header parameter of the 2026-07-28 HTTP binding. The
// advertised property carries `"x-mcp-header": "Region"`, so clients mirror its value into `Mcp-Param-Region` for
// gateways to route on; Kiln checks the header against the body before the call runs. Equivalent to
// `.meta({ 'x-mcp-header': 'Region' })`; a raw `inputSchema` writes the keyword itself.
import type { z } from 'zod';

/** The JSON Schema keyword that designates a header parameter (SEP-2243). */
export const X_MCP_HEADER = 'x-mcp-header';

export function headerParam<S extends z.ZodType>(schema: S, header: string): S {
  return schema.meta({ [X_MCP_HEADER]: header });
}
