// Header parameters of the 2026-07-28 HTTP binding (SEP-2243): input properties marked `x-mcp-header`, whose value a
// client mirrors into an `Mcp-Param-<Name>` header. Found once at boot in the advertised inputSchema; a designation
// clients would refuse (they drop the whole tool from tools/list) is a boot error here, not a silent gap.
import { X_MCP_HEADER } from '../../decorators/header-param.js';
import type { JsonSchema } from './schema/json-schema.js';

export interface HeaderParam {
  /** Where the value sits in `arguments`: a chain of property names from the root. */
  readonly path: readonly string[];
  /** The header name after `Mcp-Param-`, as declared. */
  readonly header: string;
  readonly type: 'string' | 'integer' | 'boolean';
}

// RFC 9110 §5.6.2 token: visible ASCII without delimiters.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

// Subschema positions a designation may not sit under: only a chain of `properties` reaches a header parameter.
const SINGLE_SUBSCHEMA = [
  'items',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
];
const SUBSCHEMA_LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const SUBSCHEMA_MAPS = ['patternProperties', 'dependentSchemas', '$defs', 'definitions'];

export function scanHeaderParams(inputSchema: JsonSchema): { params: HeaderParam[]; problems: string[] } {
  const params: HeaderParam[] = [];
  const problems: string[] = [];
  const byLowerName = new Map<string, string>();

  const visit = (node: unknown, path: string[], reachable: boolean, where: string): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const schema = node as JsonSchema;
    if (X_MCP_HEADER in schema) {
      const at = where || 'the root';
      const name = schema[X_MCP_HEADER];
      const type = schema.type;
      if (!reachable || path.length === 0) {
        problems.push(
          `${X_MCP_HEADER} at ${at} is not reachable through properties alone (not under items, composition, conditionals, $defs or a union root)`,
        );
      } else if (typeof name !== 'string' || !TOKEN.test(name)) {
        problems.push(`${X_MCP_HEADER} of ${at} must be a non-empty HTTP token (no spaces or delimiters)`);
      } else if (typeof type !== 'string' || !HEADER_TYPES.has(type)) {
        problems.push(
          `${X_MCP_HEADER} of ${at} is on a ${typeof type === 'string' ? type : 'untyped'} property; only string, integer and boolean properties may be header parameters`,
        );
      } else if (byLowerName.has(name.toLowerCase())) {
        problems.push(
          `${X_MCP_HEADER} '${name}' of ${at} repeats '${byLowerName.get(name.toLowerCase())}' (names are case-insensitive)`,
        );
      } else {
        byLowerName.set(name.toLowerCase(), name);
        params.push({ path, header: name, type: type as HeaderParam['type'] });
      }
    }
    const below = (segment: string) => (where === '' ? segment : `${where}.${segment}`);
    const properties = schema.properties;
    if (typeof properties === 'object' && properties !== null) {
      for (const [key, child] of Object.entries(properties)) visit(child, [...path, key], reachable, below(key));
    }
    for (const keyword of SINGLE_SUBSCHEMA) visit(schema[keyword], path, false, below(keyword));
    for (const keyword of SUBSCHEMA_LISTS) {
      const list = schema[keyword];
      if (!Array.isArray(list)) continue;
      for (const [i, branch] of list.entries()) visit(branch, path, false, below(`${keyword}[${i}]`));
    }
    for (const keyword of SUBSCHEMA_MAPS) {
      const map = schema[keyword];
      if (typeof map === 'object' && map !== null) {
        for (const [key, child] of Object.entries(map)) visit(child, path, false, below(`${keyword}.${key}`));
      }
    }
  };
  visit(inputSchema, [], true, '');
  return { params, problems };
}
