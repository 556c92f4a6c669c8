// A JSON Schema location (`properties.filter.properties.since`) as the field path lint findings name
// (`filter.since`): object keys joined by dots, array items as `[]`, record values as `.*`, union branches skipped.

export function formatSchemaPath(path: readonly (string | number)[]): string {
  let field = '';
  for (let index = 0; index < path.length; index++) {
    const segment = path[index];
    if (segment === 'properties') {
      const key = String(path[++index]);
      field = field ? `${field}.${key}` : key;
    } else if (segment === 'items') field = `${field}[]`;
    else if (segment === 'prefixItems') field = `${field}[${path[++index]}]`;
    else if (segment === 'additionalProperties') field = field ? `${field}.*` : '*';
    else if (segment === '$defs' || segment === 'definitions') field = String(path[++index]);
  }
  return field || '(root)';
}
